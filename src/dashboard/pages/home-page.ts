// The signed-in dashboard: the shop at a glance. The page's only secret is the session's CSRF
// token (in a meta tag, for the requests that change state); the key itself never reaches it.
import { html, type Html } from '../../demo/pages/html.js';
import { dashboardLayout } from './layout.js';

export interface ShopGlance {
  shopId: string;
  products: number;
  eventsApplied: number;
  shoppersTracked: number;
}

const count = new Intl.NumberFormat('en');

export function homePage(glance: ShopGlance, csrf: string): Html {
  return dashboardLayout(
    glance.shopId,
    html`<header>
        <strong>Pairwise · ${glance.shopId}</strong>
        <form method="post" action="/dashboard/sign-out">
          <input type="hidden" name="csrf" value="${csrf}">
          <button type="submit">Sign out</button>
        </form>
      </header>
      <main>
        <h1>Overview</h1>
        <dl class="glance">
          <dt>Products in the catalog</dt><dd data-metric="products">${count.format(glance.products)}</dd>
          <dt>Events applied since start</dt><dd data-metric="events">${count.format(glance.eventsApplied)}</dd>
          <dt>Shoppers tracked</dt><dd data-metric="shoppers">${count.format(glance.shoppersTracked)}</dd>
        </dl>
      </main>`,
    html`<meta name="csrf-token" content="${csrf}">`,
  );
}
