// GET /demo/products/:handle — the product, its theme add-to-cart button (wired to Pairwise with
// data-pairwise-add-to-cart), a view event (data-pairwise-view), and three carousels.
import type { Product } from '../../engine/product.js';
import { html } from '../../html.js';
import { layout } from './layout.js';
import { formatPrice, type PageContext } from './shop-view.js';
import { widget } from './widgets.js';

export function productPage(ctx: PageContext, product: Product): string {
  const collection = product.collections.map((id) => ctx.storefront.collection(id)).find((c) => c !== undefined);
  const onSale = product.compareAtPrice !== null && Number(product.compareAtPrice) > Number(product.price);
  const body = html`
<p class="crumbs"><a href="/demo">Home</a>${collection ? html` / <a href="/demo/collections/${collection.handle}">${collection.title}</a>` : ''} / ${product.title}</p>
<article class="product" data-pairwise-view="${product.id}">
  <img src="${product.image ?? ''}" alt="${product.title}" width="400" height="400">
  <div>
    <p class="vendor">${product.vendor ?? ''}</p>
    <h1>${product.title}</h1>
    <p class="price${onSale ? ' sale' : ''}"><span class="now">${formatPrice(product.price)}</span>${onSale ? html`<s><span class="visually-hidden">was </span>${formatPrice(product.compareAtPrice)}</s>` : ''}</p>
    <div class="buy"><button type="button" data-pairwise-add-to-cart="${product.id}"${product.available ? '' : html` disabled`}>${product.available ? 'Add to cart' : 'Sold out'}</button></div>
    ${product.productType ? html`<p>${product.productType}</p>` : ''}
    <ul class="tags" aria-label="Tags">${product.tags.map((t) => html`<li>${t}</li>`)}</ul>
  </div>
</article>
${widget({ strategy: 'bought-together', widgetId: 'product-bought-together', productId: product.id, title: 'Frequently bought together' })}
${widget({ strategy: 'similar', widgetId: 'product-similar', productId: product.id, title: 'You may also like' })}
${widget({ strategy: 'recently-viewed', widgetId: 'product-recently-viewed', productId: product.id, title: 'Recently viewed', backfill: false })}`;
  return layout(ctx, { title: product.title, body });
}
