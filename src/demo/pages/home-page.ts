// GET /demo: the shop's front page — trending, the collections, and for a signed-in sample shopper a
// personalized carousel; recently viewed once the shopper has looked at something.
import { html } from '../../html.js';
import { layout } from './layout.js';
import { collectionProducts, type PageContext } from './shop-view.js';
import { widget } from './widgets.js';

export function homePage(ctx: PageContext): string {
  const tiles = ctx.storefront.collections.map(
    (c) => html`<li><a href="/demo/collections/${c.handle}"><strong>${c.title}</strong><span>${collectionProducts(ctx.catalog, c.id).length} products</span></a></li>`,
  );
  const body = html`
<section class="hero"><h1>Little things, well chosen</h1>
<p>A demo gift shop running on Pairwise. The carousels below are live: they come from the recommendation API and change as
shoppers browse and buy. Sign in as a sample shopper (top right) to see recommendations made for them.</p></section>
${ctx.shopper ? widget({ strategy: 'personalized', widgetId: 'home-personalized', title: `Picked for you, ${ctx.shopper.customerId}` }) : ''}
${widget({ strategy: 'trending', widgetId: 'home-trending', title: 'Trending this week', limit: 12 })}
${widget({ strategy: 'recently-viewed', widgetId: 'home-recently-viewed', title: 'Recently viewed', backfill: false })}
<h2>Shop by collection</h2>
<ul class="tiles">${tiles}</ul>`;
  return layout(ctx, { title: 'Home', body });
}
