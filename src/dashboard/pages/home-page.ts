// The signed-in dashboard: the page's frame, filled by its script (/dashboard/app.js) from the
// cookie-authenticated data routes: totals, charts over a 7/30/90-day range, tables per strategy
// and widget, the top recommended products and the experiments; and, drawn here, why personalized
// recommends what it does (model-panel.ts). The page's only secret is the
// session's CSRF token (in a meta tag, for the requests that change state); the key never reaches it.
import { html, type Html } from '../../html.js';
import type { ShopGlance } from '../../app/shop-status.js';
import { dashboardLayout } from './layout.js';
import { modelPanel } from './model-panel.js';

const count = new Intl.NumberFormat('en');
const megabytes = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const MB = 1024 * 1024;

/** "1,234 of 5,000,000 events · 0.2 of 1,000 MB", and what happens once either is spent. */
function storefrontToday({ events, bytes, eventsPerDay, bytesPerDay }: ShopGlance['storefront']): Html {
  const eventsText = eventsPerDay > 0 ? `${count.format(events)} of ${count.format(eventsPerDay)} events` : `${count.format(events)} events (no limit)`;
  const bytesText = bytesPerDay > 0 ? `${megabytes.format(bytes / MB)} of ${megabytes.format(bytesPerDay / MB)} MB` : `${megabytes.format(bytes / MB)} MB (no limit)`;
  const spent = (eventsPerDay > 0 && events >= eventsPerDay) || (bytesPerDay > 0 && bytes >= bytesPerDay);
  return html`${eventsText} · ${bytesText}${spent ? html` <strong class="warning">spent: storefront events are refused until 00:00 UTC</strong>` : ''}`;
}
/** "Shopify acme.myshopify.com · WooCommerce https://shop.example", or none. */
function connectedStores({ shopify, woocommerce }: ShopGlance['integrations']): Html {
  const stores = [shopify === null ? undefined : `Shopify ${shopify}`, woocommerce === null ? undefined : `WooCommerce ${woocommerce}`].filter((s) => s !== undefined);
  return html`${stores.length === 0 ? 'none (PUT /api/integrations/shopify or /woocommerce)' : stores.join(' · ')}`;
}

/** The feed's address and interval, and what its last pull did (its error, when it failed). */
function feedStatus(feed: ShopGlance['integrations']['feed']): Html {
  if (!feed.configured) return html`none (PUT /api/integrations/feed)`;
  const schedule = `${feed.url} every ${count.format(feed.everyMinutes!)} min`;
  const last = feed.last;
  if (last === undefined) return html`${schedule} · first pull under way`;
  const when = `last pull ${last.endedAt.slice(0, 16).replace('T', ' ')} UTC`;
  if (last.error !== undefined) return html`${schedule} · ${when}: <strong class="warning">failed: ${last.error}</strong>`;
  if (last.notModified) return html`${schedule} · ${when}: unchanged`;
  return html`${schedule} · ${when}: ${count.format(last.seen)} products, ${count.format(last.changed)} changed, ${count.format(last.refused)} refused, ${count.format(last.unlisted)} no longer listed`;
}

const RANGES = [7, 30, 90] as const;
const DEFAULT_RANGE = 30;

function rangePicker(): Html {
  return html`<div class="range" id="range" role="group" aria-label="Range">
      ${RANGES.map((days) => html`<button type="button" data-days="${String(days)}" aria-pressed="${String(days === DEFAULT_RANGE)}">${String(days)} days</button>`)}
      <span class="range-label" id="range-label"></span>
    </div>`;
}

function experimentForm(): Html {
  return html`<form id="new-experiment" class="panel" autocomplete="off">
      <h3>New experiment</h3>
      <label for="experiment-name">Name</label>
      <input id="experiment-name" name="name" maxlength="120" placeholder="Similar vs automatic">
      <label for="experiment-widget">Placement (widgetId)</label>
      <input id="experiment-widget" name="widgetId" required maxlength="64" placeholder="product-similar">
      <label>Variants (A is the control; shares are weights)</label>
      <div id="variants"></div>
      <div class="actions">
        <button type="button" class="secondary" id="add-variant">Add a variant</button>
        <button type="submit">Create</button>
      </div>
    </form>`;
}

function ruleEditor(): Html {
  return html`<div id="rule-editor" class="panel">
      <h3>Edit a rule</h3>
      <label for="rule-id">Rule id</label>
      <input id="rule-id" name="ruleId" maxlength="64" placeholder="summer-week" autocomplete="off">
      <label for="rule-json">Rule (JSON, as PUT /api/rules/{id} takes it)</label>
      <textarea id="rule-json" rows="10" spellcheck="false"></textarea>
      <label for="rule-query">Preview query</label>
      <input id="rule-query" value="strategy=trending&amp;limit=8" autocomplete="off">
      <div class="actions">
        <button type="button" class="secondary" id="rule-preview">Preview</button>
        <button type="button" id="rule-save">Save</button>
      </div>
      <p class="form-status" id="rule-editor-status" role="status"></p>
      <div class="preview" id="rule-preview-result"></div>
    </div>`;
}

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
          <dt>Products in the catalog</dt> <dd data-metric="products">${count.format(glance.products)}</dd>
          <dt>Events applied since start</dt> <dd data-metric="events">${count.format(glance.eventsApplied)}</dd>
          <dt>Shoppers tracked</dt> <dd data-metric="shoppers">${count.format(glance.shoppersTracked)}</dd>
          <dt>Stored from the storefront today</dt> <dd data-metric="storefront-today">${storefrontToday(glance.storefront)}</dd>
          <dt>Connected stores</dt> <dd data-metric="stores">${connectedStores(glance.integrations)}</dd>
          <dt>Product feed</dt> <dd data-metric="feed">${feedStatus(glance.integrations.feed)}</dd>
        </dl>
        ${rangePicker()}
        <div class="kpis" id="totals" aria-live="polite"></div>
        <div class="panels two">
          <div class="panel"><h2>Revenue attributed per day</h2><div class="chart" id="chart-revenue"></div></div>
          <div class="panel"><h2>Click-through and conversion per day</h2><div class="chart" id="chart-rates"></div></div>
        </div>
        <section>
          <h2>Strategies and placements</h2>
          <div class="panels">
            <div class="panel" id="by-strategy"></div>
            <div class="panel" id="by-widget"></div>
          </div>
        </section>
        <section>
          <h2>Top recommended products</h2>
          <div class="panel" id="top-products"></div>
        </section>
        ${modelPanel(glance.model)}
        <section>
          <h2>Rules</h2>
          <p class="form-status" id="rule-status" role="status"></p>
          <div class="panel" id="rules"></div>
          ${ruleEditor()}
        </section>
        <section>
          <h2>Experiments</h2>
          <p class="form-status" id="experiment-status" role="status"></p>
          <div id="experiments"></div>
          ${experimentForm()}
        </section>
      </main>`,
    html`<meta name="csrf-token" content="${csrf}">
<meta name="shop-currency" content="${glance.currency ?? ''}">
<link rel="stylesheet" href="/dashboard/app.css">
<script src="/dashboard/app.js" defer></script>`,
  );
}
