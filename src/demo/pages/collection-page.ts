// GET /demo/collections/:handle — what is popular in the collection (live), then all its products.
import type { DemoCollection } from '../demo-storefront.js';
import { html } from '../../html.js';
import { layout } from './layout.js';
import { collectionProducts, formatPrice, productPath, type PageContext } from './shop-view.js';
import { widget } from './widgets.js';

export function collectionPage(ctx: PageContext, collection: DemoCollection): string {
  const products = collectionProducts(ctx.catalog, collection.id);
  const grid = products.map(
    (p) => html`<li><a href="${productPath(p)}"><img src="${p.image ?? ''}" alt="${p.title}" loading="lazy" width="400" height="400"><span class="t">${p.title}</span><span class="p">${formatPrice(p.price)}${p.available ? '' : ' · sold out'}</span></a></li>`,
  );
  const body = html`
<p class="crumbs"><a href="/demo">Home</a> / ${collection.title}</p>
<h1>${collection.title}</h1>
<p class="note">${collection.description}</p>
${widget({ strategy: 'collection-popular', widgetId: 'collection-popular', collectionId: collection.id, title: `Popular in ${collection.title}`, limit: 12 })}
<h2>All ${products.length} products</h2>
<ul class="grid">${grid}</ul>`;
  return layout(ctx, { title: collection.title, collectionId: collection.id, body });
}
