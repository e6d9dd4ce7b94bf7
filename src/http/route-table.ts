// Every HTTP route of the service in one table: the server compiles each entry into its pipeline
// (access, CORS, rate limits, body cap and validation: transport/route.ts) and the OpenAPI document
// is generated from the same entries (openapi/document.ts), so no route is served undocumented and
// none enforces other than it documents. Adding a route is adding one entry here.
import { batchEvents } from '../api/event.js';
import { currencyBody } from '../api/currency.js';
import { experimentBody } from '../api/experiment.js';
import { feedBody, shopifyConnectionBody, wooConnectionBody } from '../api/integrations.js';
import { catalogProducts } from '../api/product.js';
import { recencyBody } from '../api/recency.js';
import { rulePreviewBody } from '../api/rule.js';
import { widgetsBody } from '../api/widgets.js';
import type { HttpDeps } from './deps.js';
import type { Handler } from '../transport/route.js';
import { declare, type Route } from './route-declaration.js';
import { getDashboard, MAX_FORM_BYTES, PAGE_REQUEST_HEADERS, postDashboardSignIn, postDashboardSignOut } from './routes/dashboard.js';
import { getDashboardScript, getDashboardStyles } from './routes/dashboard-assets.js';
import { getDemoImage } from './routes/demo-images.js';
import { DEMO_PAGE_HEADERS, getDemoCollection, getDemoHome, getDemoNotFound, getDemoProduct, getDemoSignIn } from './routes/demo-pages.js';
import { postEvent, postEventBatch } from './routes/events.js';
import { getOpenApi } from './routes/openapi.js';
import { getHealth, getMetrics } from './routes/operations.js';
import { deleteProduct, getProduct, listProducts, putProducts } from './routes/products.js';
import { getRecommendations } from './routes/recommendations.js';
import { deleteCustomer, getCustomer } from './routes/customers.js';
import { experimentRoutes, MAX_EXPERIMENT_BODY_BYTES, type ExperimentAction } from './routes/experiments.js';
import { getFavicon } from './routes/favicon.js';
import {
  deleteConnection,
  deleteFeed,
  getConnection,
  getFeed,
  MAX_CONNECTION_BODY_BYTES,
  MAX_FEED_BODY_BYTES,
  MAX_WEBHOOK_BODY_BYTES,
  postShopifyWebhook,
  postWooWebhook,
  putConnection,
  putFeed,
  SHOPIFY_HEADERS,
  SHOPIFY_SIGNATURE,
  verifyShopify,
  verifyWoo,
  WOO_HEADERS,
  WOO_SIGNATURE,
} from './routes/integrations.js';
import { getRoot } from './routes/root.js';
import { MAX_RULE_BYTES, ruleRoutes } from './routes/rules.js';
import { getStats } from './routes/stats.js';
import { deleteShop, getShop, getShopModel, MAX_CURRENCY_BODY_BYTES, MAX_RECENCY_BODY_BYTES, MAX_WIDGETS_BODY_BYTES, putShopCurrency, putShopRecency, putShopWidgets } from './routes/shop.js';
import { getWidget } from './routes/widget.js';

/** The dashboard's data is the shop's own: never cached by the browser or a proxy. */
const NO_STORE = { 'cache-control': 'no-store' } as const;

const PLATFORMS = {
  shopify: { name: 'Shopify', schema: 'WireShopifyConnection', store: 'a Shopify domain (<shop>.myshopify.com)', parse: shopifyConnectionBody, docs: 'docs/shopify.md' },
  woocommerce: { name: 'WooCommerce', schema: 'WireWooConnection', store: "a WooCommerce store's address", parse: wooConnectionBody, docs: 'docs/woocommerce.md' },
} as const;

/** PUT, GET and DELETE /api/integrations/{platform}: the shop's connection to its store on the platform. */
const connectionRoutes = (platform: keyof typeof PLATFORMS): Route[] => {
  const { name, schema, store, parse } = PLATFORMS[platform];
  const path = `/api/integrations/${platform}`;
  return [
    declare({
      method: 'put',
      path,
      handler: putConnection(platform),
      access: 'secret',
      body: { kind: 'json', schema, maxBytes: MAX_CONNECTION_BODY_BYTES, parse },
      doc: {
        summary: `Connect the shop to its ${name} store, or rotate its webhook secret`,
        description:
          `${store[0]!.toUpperCase()}${store.slice(1)} and the secret its webhooks are signed with. Deliveries to POST /webhooks/${platform} naming the store are then verified with it and fed to this shop; ` +
          'after a rotation the previous secret is taken for 48 hours more (the platform retries with what it signed). One store feeds one shop.',
        tag: 'integrations',
        ok: { status: 200, description: 'The connection, as GET shows it.', schema: 'ConnectionView' },
        errors: ['invalid_integration', 'integration_taken'],
      },
    }),
    declare({
      method: 'get',
      path,
      handler: getConnection(platform),
      access: 'secret',
      doc: { summary: `The shop's ${name} connection (never its secret)`, tag: 'integrations', ok: { status: 200, description: 'The connection.', schema: 'ConnectionView' } },
    }),
    declare({
      method: 'delete',
      path,
      handler: deleteConnection(platform),
      access: 'secret',
      doc: {
        summary: `Disconnect the shop from its ${name} store`,
        description: 'Its webhook deliveries are refused (401) from then on; what they brought stays.',
        tag: 'integrations',
        ok: { status: 200, description: 'The connection, as GET shows it now.', schema: 'ConnectionView' },
      },
    }),
  ];
};

const apiRules = ruleRoutes();
const dashboardRules = ruleRoutes(NO_STORE);
const apiExperiments = experimentRoutes();
const dashboardExperiments = experimentRoutes(NO_STORE);

const demoPage = (summary: string, handler: (deps: HttpDeps) => Handler, path: string, params?: Record<string, string>): Route => declare({
  method: 'get',
  path,
  handler,
  headers: DEMO_PAGE_HEADERS,
  access: 'none',
  demo: true,
  doc: { summary, tag: 'demo', ...(params ? { params } : {}), ok: { status: 200, description: 'An HTML page.', contentType: 'text/html; charset=utf-8' }, errors: params ? ['not_found'] : [] },
});

/** POST /api/experiments/{id}/start|stop|conclude. */
const experimentAction = (action: ExperimentAction, summary: string): Route =>
  declare({
    method: 'post',
    path: `/api/experiments/{id}/${action}`,
    handler: apiExperiments.act(action),
    access: 'secret',
    doc: {
      summary,
      tag: 'analytics',
      params: { id: 'The experiment (exp_<n>).' },
      ok: { status: 200, description: 'The experiment as it is now.', schema: 'ExperimentView' },
      errors: ['not_found', 'experiment_conflict'],
    },
  });

/** The same action from the signed-in dashboard: same origin and the session's CSRF token. */
const dashboardExperimentAction = (action: ExperimentAction, summary: string): Route =>
  declare({
    method: 'post',
    path: `/dashboard/data/experiments/{id}/${action}`,
    handler: dashboardExperiments.act(action),
    access: 'session',
    sameOrigin: true,
    doc: {
      summary,
      description: "Same origin only, with the session's CSRF token in `x-csrf-token`.",
      tag: 'dashboard',
      params: { id: 'The experiment (exp_<n>).' },
      ok: { status: 200, description: 'The experiment as it is now, with its results.', schema: 'ExperimentWithResults' },
      errors: ['forbidden', 'not_found', 'experiment_conflict'],
    },
  });

export const ROUTES: readonly Route[] = [
  declare({
    method: 'get',
    path: '/api/recommendations',
    handler: getRecommendations,
    headers: ['pairwise-after'],
    access: 'public',
    storefront: true,
    doc: {
      summary: 'Recommended products for a context',
      description:
        'When the strategy has fewer than `limit` items, the rest come from its backfill chain; each item names the strategy that produced it. ' +
        'Never returned: the context product, `exclude`d ids, unavailable products, products this shopper dismissed in the last 30 days. ' +
        '`filters` restricts the whole answer (backfill included) to the products an expression selects, so it may hold fewer than `limit` (meta.count); `diversity` caps the items sharing an attribute value.',
      tag: 'recommendations',
      query: 'RecommendationParams',
      ok: { status: 200, description: 'The recommended products and how they were chosen.', schema: 'RecommendationResponse' },
      errors: ['invalid_strategy', 'invalid_limit', 'missing_context', 'invalid_query', 'invalid_filter', 'invalid_diversity', 'invalid_position', 'invalid_customer_token'],
    },
  }),
  declare({
    method: 'post',
    path: '/api/events',
    handler: postEvent,
    access: 'public',
    storefront: true,
    body: { kind: 'json', schema: 'WireEvent', textPlain: true, maxBytes: (config) => config.maxEventBodyBytes },
    doc: {
      summary: 'Record one shopper event',
      description: 'Answered only after the event is committed and flushed to disk. A repeated `messageId` within 7 days returns the first `eventId` with `duplicate: true` and changes nothing. With the public key, an event naming a `sessionId` the shop holds no state for creates a session: past the bound on new sessions (per client address and per shop, a minute) it is refused with 429 `too_many_new_sessions` and `Retry-After`. Once the public key has stored its day\'s budget of events or bytes, nothing is stored: 429 `storefront_quota` with `Retry-After` (the next day, UTC).',
      tag: 'events',
      ok: { status: 200, description: 'The event is stored (or was already).', schema: 'EventAck' },
      errors: ['invalid_event', 'invalid_customer_token', 'too_many_new_sessions', 'storefront_quota'],
    },
  }),
  declare({
    method: 'post',
    path: '/api/events/batch',
    handler: postEventBatch,
    access: 'public',
    storefront: true,
    body: { kind: 'json', schema: 'WireBatch', textPlain: true, maxBytes: (config) => config.maxBatchBodyBytes, parse: batchEvents, cost: (events) => events.length },
    doc: {
      summary: 'Record up to 100 events in one commit',
      description: 'A body that is not `{events: [...]}` with 1-100 events is refused whole. Otherwise each event is judged alone: the valid ones are stored, the others reported by index (`invalid_event`, `invalid_customer_token`, or `too_many_new_sessions`: a new session past the bound, its wait in `detail`). With the public key, events count against the rate limits one token each, and a batch that does not fit in what is left of the day\'s storefront budget stores nothing: 429 `storefront_quota` with `Retry-After`.',
      tag: 'events',
      ok: { status: 200, description: "Each event's fate, by its index in the batch.", schema: 'BatchResponse' },
      errors: ['invalid_batch', 'batch_too_large', 'storefront_quota'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/products',
    handler: listProducts,
    access: 'secret',
    doc: {
      summary: 'The catalog, a page at a time',
      description: 'In product-id order; the cursor names the last product of the page before, so paging stays exact while products are added or removed.',
      tag: 'catalog',
      query: 'CatalogPageParams',
      ok: { status: 200, description: 'One page of products.', schema: 'CatalogPage' },
      errors: ['invalid_cursor', 'invalid_limit'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/shop',
    handler: getShop,
    access: 'secret',
    doc: {
      summary: "The key's shop: counts and settings",
      tag: 'catalog',
      ok: { status: 200, description: 'The shop (no secrets).', schema: 'ShopInfo' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/shop/model',
    handler: getShopModel,
    access: 'secret',
    doc: {
      summary: 'Why these recommendations: the settings personalized runs with, and how the shop chose them',
      description:
        "At each EASE refit the shop validates personalized's settings (momentum exponent, real-time weight, EASE's λ) on its own data: the shop's newest purchases are held out (for every other shopper who made one) and predicted from the rest of those shoppers' histories. " +
        'The best setting is installed only when its nDCG@10 beats the default by more than `margin` standard errors of the per-shopper difference; otherwise, and for a shop with too little data, the defaults stay. ' +
        'The choice travels with the fit, so every server process and cluster node runs the same settings.',
      tag: 'catalog',
      ok: { status: 200, description: "The shop's model settings and their validation.", schema: 'ShopModel' },
    },
  }),
  declare({
    method: 'delete',
    path: '/api/shop',
    handler: deleteShop,
    access: 'secret',
    doc: {
      summary: "Erase the key's shop",
      description:
        'Removes everything stored for the shop (its event log, catalog, keys, snapshots, experiments, EASE fits, dashboard sessions) in one commit; every server process drops its models and refuses its keys at once (a process elsewhere within its log poll). ' +
        'Cannot be undone. `confirm` must be the shop id.',
      tag: 'customers',
      query: 'ShopErasureParams',
      ok: { status: 200, description: 'The shop is erased.', schema: 'ShopErased' },
      errors: ['confirmation_required', 'unavailable'],
    },
  }),
  declare({
    method: 'put',
    path: '/api/shop/widgets',
    handler: putShopWidgets,
    access: 'secret',
    body: { kind: 'json', schema: 'WireWidgets', maxBytes: MAX_WIDGETS_BODY_BYTES, parse: widgetsBody },
    doc: {
      summary: "Register the shop's widget ids (attribution names them)",
      description:
        'Replaces the list. Attribution counts a registered widget under its own name for good; a widgetId that is not registered comes from a storefront (anyone with the public key can send one): only the first 20 of those per UTC day are named, the rest of the day counts as `(other)`. See docs/analytics.md.',
      tag: 'analytics',
      ok: { status: 200, description: 'The registered widgets, as stored.', schema: 'RegisteredWidgets' },
      errors: ['invalid_widgets', 'not_found'],
    },
  }),
  declare({
    method: 'put',
    path: '/api/shop/recency',
    handler: putShopRecency,
    access: 'secret',
    body: { kind: 'json', schema: 'WireRecency', maxBytes: MAX_RECENCY_BODY_BYTES, parse: recencyBody },
    doc: {
      summary: 'Turn the time-based priors of the shop on or off',
      description:
        "`off` turns every time-based prior off at once: personalized's momentum (recent sales against the long-run rate), the decay of basket pair weights (bought-together and personalized count pairs however old) and the decay of a shopper's history (each product weighs its undecayed total). `auto` (the default) lets the service decide; today the priors apply. " +
        'A shop change in its log: every server process applies it from the same position. `PAIRWISE_RECENCY=off` turns them off for every shop whatever this says (`effective`).',
      tag: 'recommendations',
      ok: { status: 200, description: 'The setting, as stored, and what answers apply.', schema: 'ShopRecency' },
      errors: ['invalid_recency', 'not_found'],
    },
  }),
  declare({
    method: 'put',
    path: '/api/shop/currency',
    handler: putShopCurrency,
    access: 'secret',
    body: { kind: 'json', schema: 'WireCurrency', maxBytes: MAX_CURRENCY_BODY_BYTES, parse: currencyBody },
    doc: {
      summary: "Name the currency the shop's prices are in",
      description:
        'An ISO 4217 code (`EUR`, `USD`, `GBP`, …). Prices in the catalog and in purchase events are plain numbers in it; the dashboard shows revenue with it (unset: without a currency). A shop change in its log, as every setting.',
      tag: 'analytics',
      ok: { status: 200, description: 'The setting, as stored.', schema: 'ShopCurrency' },
      errors: ['invalid_currency', 'not_found'],
    },
  }),
  ...connectionRoutes('shopify'),
  ...connectionRoutes('woocommerce'),
  declare({
    method: 'put',
    path: '/api/integrations/feed',
    handler: putFeed,
    access: 'secret',
    body: { kind: 'json', schema: 'WireFeed', maxBytes: MAX_FEED_BODY_BYTES, parse: feedBody },
    doc: {
      summary: "Pull the shop's catalog from a product feed on a schedule",
      description:
        'A Google Merchant Center product feed (RSS 2.0 or Atom XML with the g: namespace, or tab-separated; gzipped or not) at an http(s) address, pulled at once and then every `everyMinutes` (15 to 10080; default 1440) by one process of the node. ' +
        'Each pull asks conditionally (an unchanged feed is not read again), upserts its items a thousand at a time, and after a complete pull makes unavailable the products an earlier pull brought that the feed no longer lists. ' +
        'Addresses on private networks are not fetched unless PAIRWISE_FEED_ALLOW_PRIVATE=1.',
      tag: 'integrations',
      ok: { status: 200, description: 'The feed settings, as GET shows them.', schema: 'FeedView' },
      errors: ['invalid_integration'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/integrations/feed',
    handler: getFeed,
    access: 'secret',
    doc: { summary: "The shop's product feed: its address, its interval, when it is next pulled and what the last pull did", tag: 'integrations', ok: { status: 200, description: 'The feed settings.', schema: 'FeedView' } },
  }),
  declare({
    method: 'delete',
    path: '/api/integrations/feed',
    handler: deleteFeed,
    access: 'secret',
    doc: { summary: "Stop pulling the shop's product feed (its products stay as the last pull left them)", tag: 'integrations', ok: { status: 200, description: 'The feed settings, as GET shows them now.', schema: 'FeedView' } },
  }),
  declare({
    method: 'post',
    path: '/webhooks/shopify',
    handler: postShopifyWebhook,
    access: 'signed',
    signatureHeader: SHOPIFY_SIGNATURE,
    verify: verifyShopify,
    headers: SHOPIFY_HEADERS,
    body: { kind: 'raw', contentType: 'application/json', maxBytes: MAX_WEBHOOK_BODY_BYTES },
    doc: {
      summary: "Shopify's webhook deliveries",
      description:
        'The shop is the one connected to X-Shopify-Shop-Domain; X-Shopify-Hmac-Sha256 must be the base64 HMAC-SHA256 of the exact body with its webhook secret. ' +
        'Topics taken: products/create, products/update, products/delete, orders/create, orders/paid, orders/cancelled, app/uninstalled and the compliance topics customers/data_request, customers/redact and shop/redact; any other is answered 200 `ignored`. ' +
        'A delivery id (X-Shopify-Webhook-Id) taken before, or an order whose lines were taken before, changes nothing. Stored durably and applied before the answer.',
      tag: 'integrations',
      ok: { status: 200, description: 'What the delivery did.', schema: 'DeliveryAnswer' },
      errors: ['invalid_json', 'invalid_webhook', 'unavailable'],
    },
  }),
  declare({
    method: 'post',
    path: '/webhooks/woocommerce',
    handler: postWooWebhook,
    access: 'signed',
    signatureHeader: WOO_SIGNATURE,
    verify: verifyWoo,
    headers: WOO_HEADERS,
    body: { kind: 'raw', contentType: 'application/json', maxBytes: MAX_WEBHOOK_BODY_BYTES },
    doc: {
      summary: "WooCommerce's webhook deliveries",
      description:
        'The shop is the one connected to X-WC-Webhook-Source; X-WC-Webhook-Signature must be the base64 HMAC-SHA256 of the exact body with the webhook\'s secret. ' +
        'Topics taken: product.created, product.updated, product.restored, product.deleted, order.created and order.updated (paid orders count, cancelled or refunded ones are taken back); any other is answered 200 `ignored`, ' +
        'as is the unsigned `webhook_id=<id>` ping WooCommerce sends when a webhook is saved. A delivery id (X-WC-Webhook-Delivery-ID) taken before changes nothing.',
      tag: 'integrations',
      ok: { status: 200, description: 'What the delivery did.', schema: 'DeliveryAnswer' },
      errors: ['invalid_json', 'invalid_webhook', 'unavailable'],
    },
  }),
  declare({
    method: 'put',
    path: '/api/products',
    handler: putProducts,
    access: 'secret',
    body: { kind: 'json', schema: 'WireCatalog', maxBytes: (config) => config.maxCatalogBodyBytes, parse: (input, deps) => catalogProducts(input, deps.config.engine.gidPlatform, deps.clock()) },
    doc: {
      summary: 'Upsert up to 1000 catalog products',
      description: 'All or nothing: every invalid field is listed with its JSON pointer.',
      tag: 'catalog',
      ok: { status: 200, description: 'Every product is stored.', schema: 'ProductsUpserted' },
      errors: ['invalid_product'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/products/{id}',
    handler: getProduct,
    access: 'secret',
    doc: {
      summary: 'One catalog product',
      tag: 'catalog',
      params: { id: 'Product id, bare (123) or gid://shopify/Product/123.' },
      ok: { status: 200, description: 'The product as stored.', schema: 'CatalogProduct' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'delete',
    path: '/api/products/{id}',
    handler: deleteProduct,
    access: 'secret',
    doc: {
      summary: 'Remove a catalog product',
      tag: 'catalog',
      params: { id: 'Product id, bare (123) or gid://shopify/Product/123.' },
      ok: { status: 200, description: 'The product is gone.', schema: 'ProductDeleted' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/rules',
    handler: apiRules.list,
    access: 'secret',
    doc: {
      summary: "The shop's merchandising rules, in id order (the order they compose in)",
      tag: 'rules',
      ok: { status: 200, description: 'Every rule.', schema: 'RuleList' },
    },
  }),
  declare({
    method: 'put',
    path: '/api/rules/{id}',
    handler: apiRules.put,
    access: 'secret',
    body: { kind: 'json', schema: 'WireRule', maxBytes: MAX_RULE_BYTES },
    doc: {
      summary: 'Add or replace a rule: when it applies (validity window, strategies, widgets, collections, context product) and what it does (filter, hide, boost, diversity, pins)',
      description:
        'Takes effect on the next request. A shop holds at most 100 rules; a rule at most 24 pins and 8 boosts; its body at most 8 KiB. A malformed filter, or one naming an attribute the catalog lacks, is a 400 invalid_rule whose errors name the field (JSON pointer), the position and the token expected there. See docs/api.md for the order rules apply and compose in.',
      tag: 'rules',
      params: { id: 'The rule id: 1-64 letters, digits, dots, dashes and underscores.' },
      ok: { status: 200, description: 'The rule as stored (201 when it is new).', schema: 'RuleStored' },
      errors: ['invalid_rule', 'too_many_rules'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/rules/{id}',
    handler: apiRules.get,
    access: 'secret',
    doc: {
      summary: 'One rule',
      tag: 'rules',
      params: { id: 'The rule id.' },
      ok: { status: 200, description: 'The rule as stored.', schema: 'RuleView' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'delete',
    path: '/api/rules/{id}',
    handler: apiRules.remove,
    access: 'secret',
    doc: {
      summary: 'Remove a rule (takes effect on the next request)',
      tag: 'rules',
      params: { id: 'The rule id.' },
      ok: { status: 200, description: 'The rule is gone.', schema: 'RuleDeleted' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/customers/{id}',
    handler: getCustomer,
    access: 'secret',
    doc: {
      summary: "Export a customer's data",
      description:
        "Every stored event of the customer (a page at a time, oldest first: pass `nextCursor` as `cursor` until it is null) and what this server's models hold for them. " +
        'A customer the shop never saw exports empty (never 404).',
      tag: 'customers',
      query: 'CustomerEventsParams',
      params: { id: 'The customerId, percent-encoded.' },
      ok: { status: 200, description: 'What is stored about the customer.', schema: 'CustomerExport' },
      errors: ['invalid_query', 'invalid_cursor', 'invalid_limit'],
    },
  }),
  declare({
    method: 'delete',
    path: '/api/customers/{id}',
    handler: deleteCustomer,
    access: 'secret',
    doc: {
      summary: 'Erase a customer',
      description:
        'Removes their events from the log (each keeps its position as an erased marker) and their state from every model of every server process, in log order; the next snapshot no longer holds them. ' +
        'Counts built from many shoppers (pairs bought or viewed together, trending, popularity, the EASE fit, attribution totals) keep what their events added.',
      tag: 'customers',
      params: { id: 'The customerId, percent-encoded.' },
      ok: { status: 200, description: 'The customer is erased on this server; `position` reads it from any other.', schema: 'CustomerErased' },
      errors: ['invalid_query', 'unavailable'],
    },
  }),
  {
    method: 'get',
    path: '/api/stream',
    access: 'public',
    doc: {
      summary: 'WebSocket channel: events in, live recommendation lists out',
      description:
        'Upgrade to a WebSocket (the key as `?key=pk_…`, or a Bearer header from a server). Text frames are JSON, binary frames msgpack; a reply uses the encoding of the frame it answers. ' +
        'The messages are in `x-pairwise-websocket`.',
      tag: 'stream',
      ok: { status: 101, description: 'Switching Protocols: the WebSocket is open.' },
      errors: ['upgrade_required'],
    },
  },
  declare({
    method: 'get',
    path: '/api/openapi.json',
    handler: (deps) => getOpenApi(ROUTES, deps.config),
    access: 'none',
    doc: {
      summary: 'This document',
      tag: 'operations',
      ok: { status: 200, description: 'The OpenAPI 3.1 document of the whole API.', contentType: 'application/json' },
    },
  }),
  declare({
    method: 'get',
    path: '/api/stats',
    handler: getStats(),
    access: 'secret',
    doc: {
      summary: 'What recommendations earned over a day range',
      description:
        'Impressions, clicks, attributed add-to-carts, orders and revenue, with 95 % Wilson intervals on CTR, add-to-cart and conversion rates; grouped by strategy, widget, experiment variant (each experiment compared with its control) or day. Read from per-day aggregates only: see docs/analytics.md.',
      tag: 'analytics',
      query: 'StatsParams',
      ok: { status: 200, description: 'Totals and groups.', schema: 'StatsAnswer' },
      errors: ['invalid_query'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/experiments',
    handler: apiExperiments.list,
    access: 'secret',
    doc: {
      summary: "The shop's A/B experiments",
      tag: 'analytics',
      ok: { status: 200, description: 'Every experiment.', schema: 'ExperimentList' },
    },
  }),
  declare({
    method: 'post',
    path: '/api/experiments',
    handler: apiExperiments.create,
    access: 'secret',
    body: { kind: 'json', schema: 'WireExperiment', maxBytes: MAX_EXPERIMENT_BODY_BYTES, parse: experimentBody },
    doc: {
      summary: 'Create an A/B experiment on a placement (a draft until started)',
      tag: 'analytics',
      ok: { status: 201, description: 'The experiment, created.', schema: 'ExperimentView' },
      errors: ['invalid_experiment', 'experiment_conflict'],
    },
  }),
  declare({
    method: 'get',
    path: '/api/experiments/{id}',
    handler: apiExperiments.get,
    access: 'secret',
    doc: {
      summary: 'One experiment with its results so far',
      tag: 'analytics',
      params: { id: 'The experiment (exp_<n>).' },
      ok: { status: 200, description: 'The experiment and each variant compared with A.', schema: 'ExperimentWithResults' },
      errors: ['not_found'],
    },
  }),
  experimentAction('start', "Start an experiment: its placement's shoppers are assigned to variants from now on"),
  experimentAction('stop', "Stop an experiment: assignment ends, results are kept"),
  experimentAction('conclude', "Conclude an experiment: it keeps its results and never runs again"),
  declare({
    method: 'get',
    path: '/healthz',
    handler: getHealth,
    access: 'none',
    doc: { summary: 'Liveness', tag: 'operations', ok: { status: 200, description: 'The service is up.', schema: 'Health' } },
  }),
  declare({
    method: 'get',
    path: '/metrics',
    handler: getMetrics,
    access: 'secret',
    doc: {
      summary: "Prometheus metrics of the node (every server process) and the key's shop",
      tag: 'operations',
      ok: { status: 200, description: 'Prometheus text exposition format (docs/operations.md).', contentType: 'text/plain; version=0.0.4; charset=utf-8' },
    },
  }),
  declare({
    method: 'get',
    path: '/widget.js',
    handler: getWidget,
    headers: ['accept-encoding'],
    access: 'none',
    doc: {
      summary: 'The storefront widget script',
      tag: 'operations',
      ok: { status: 200, description: 'JavaScript (gzip when accepted).', contentType: 'application/javascript; charset=utf-8' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'get',
    path: '/favicon.ico',
    handler: getFavicon,
    access: 'none',
    doc: { summary: "The service's icon (what browsers ask every host for)", tag: 'operations', ok: { status: 200, description: 'An SVG icon.', contentType: 'image/svg+xml' } },
  }),
  declare({
    method: 'get',
    path: '/',
    handler: getRoot,
    access: 'none',
    doc: {
      summary: 'Where a browser lands: the demo storefront when it is on (302 to /demo), else a page linking health and this document',
      tag: 'operations',
      ok: { status: 200, description: 'An HTML page (302 to /demo with the demo store on).', contentType: 'text/html; charset=utf-8' },
    },
  }),
  declare({
    method: 'get',
    path: '/dashboard',
    handler: getDashboard,
    access: 'maybe-session',
    doc: {
      summary: "The merchant's dashboard (the sign-in form when signed out)",
      description: 'Signed in by the `pairwise_dashboard` session cookie that POST /dashboard/sign-in sets; the secret key itself never reaches the page.',
      tag: 'dashboard',
      ok: { status: 200, description: 'An HTML page.', contentType: 'text/html; charset=utf-8' },
    },
  }),
  declare({
    method: 'post',
    path: '/dashboard/sign-in',
    handler: postDashboardSignIn,
    access: 'none',
    sameOrigin: true,
    signIns: true,
    headers: PAGE_REQUEST_HEADERS,
    body: { kind: 'form', maxBytes: MAX_FORM_BYTES },
    doc: {
      summary: 'Dashboard sign-in: exchanges the secret key for a session cookie',
      description:
        'A same-origin form post (`application/x-www-form-urlencoded`, field `key`). Sets an HttpOnly, SameSite=Strict cookie scoped to /dashboard (12 h) and redirects to /dashboard; an unknown or public key answers 401 with the form again. Each attempt is charged to the client address rate limit.',
      tag: 'dashboard',
      ok: { status: 303, description: 'To /dashboard, signed in.', contentType: 'text/html; charset=utf-8' },
      errors: ['forbidden', 'unsupported_media_type', 'payload_too_large', 'rate_limited'],
    },
  }),
  declare({
    method: 'post',
    path: '/dashboard/sign-out',
    handler: postDashboardSignOut,
    access: 'maybe-session',
    sameOrigin: true,
    headers: PAGE_REQUEST_HEADERS,
    body: { kind: 'form', maxBytes: MAX_FORM_BYTES },
    doc: {
      summary: 'Dashboard sign-out',
      description: "A same-origin form post carrying the session's CSRF token (field `csrf` or header `x-csrf-token`); ends the session and clears the cookie.",
      tag: 'dashboard',
      ok: { status: 303, description: 'To /dashboard, signed out.', contentType: 'text/html; charset=utf-8' },
      errors: ['forbidden', 'unsupported_media_type', 'payload_too_large'],
    },
  }),
  declare({
    method: 'get',
    path: '/dashboard/app.js',
    handler: getDashboardScript,
    headers: ['accept-encoding'],
    access: 'none',
    doc: {
      summary: "The dashboard page's script (charts drawn with uPlot, bundled in)",
      tag: 'dashboard',
      ok: { status: 200, description: 'JavaScript (gzip when accepted).', contentType: 'application/javascript; charset=utf-8' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'get',
    path: '/dashboard/app.css',
    handler: getDashboardStyles,
    headers: ['accept-encoding'],
    access: 'none',
    doc: {
      summary: "The dashboard page's chart stylesheet (uPlot's)",
      tag: 'dashboard',
      ok: { status: 200, description: 'CSS (gzip when accepted).', contentType: 'text/css; charset=utf-8' },
      errors: ['not_found'],
    },
  }),
  declare({
    method: 'get',
    path: '/dashboard/data/stats',
    handler: getStats(NO_STORE),
    access: 'session',
    doc: {
      summary: "GET /api/stats for the signed-in session's shop",
      description: 'The same parameters and answer as GET /api/stats (`groupBy=product`: the top recommended products), for the dashboard page.',
      tag: 'dashboard',
      query: 'StatsParams',
      ok: { status: 200, description: 'Totals and groups.', schema: 'StatsAnswer' },
      errors: ['invalid_query'],
    },
  }),
  declare({
    method: 'get',
    path: '/dashboard/data/experiments',
    handler: dashboardExperiments.listWithResults,
    access: 'session',
    doc: {
      summary: "The signed-in session's shop's experiments with their results, newest first",
      tag: 'dashboard',
      ok: { status: 200, description: 'Every experiment, each variant compared with A.', schema: 'DashboardExperiments' },
    },
  }),
  declare({
    method: 'post',
    path: '/dashboard/data/experiments',
    handler: dashboardExperiments.create,
    access: 'session',
    sameOrigin: true,
    body: { kind: 'json', schema: 'WireExperiment', maxBytes: MAX_EXPERIMENT_BODY_BYTES, parse: experimentBody },
    doc: {
      summary: 'Create an experiment from the dashboard (as POST /api/experiments)',
      description: "Same origin only, with the session's CSRF token in `x-csrf-token`.",
      tag: 'dashboard',
      ok: { status: 201, description: 'The experiment, created.', schema: 'ExperimentView' },
      errors: ['forbidden', 'invalid_experiment', 'experiment_conflict'],
    },
  }),
  dashboardExperimentAction('start', 'Start an experiment from the dashboard (as POST /api/experiments/{id}/start)'),
  dashboardExperimentAction('stop', 'Stop an experiment from the dashboard'),
  dashboardExperimentAction('conclude', 'Conclude an experiment from the dashboard'),
  declare({
    method: 'get',
    path: '/dashboard/data/rules',
    handler: dashboardRules.list,
    access: 'session',
    doc: {
      summary: "The signed-in session's shop's rules (as GET /api/rules)",
      tag: 'dashboard',
      ok: { status: 200, description: 'Every rule, in id order.', schema: 'RuleList' },
    },
  }),
  declare({
    method: 'put',
    path: '/dashboard/data/rules/{id}',
    handler: dashboardRules.put,
    access: 'session',
    sameOrigin: true,
    body: { kind: 'json', schema: 'WireRule', maxBytes: MAX_RULE_BYTES },
    doc: {
      summary: 'Add or replace a rule from the dashboard (as PUT /api/rules/{id})',
      description: "Same origin only, with the session's CSRF token in `x-csrf-token`.",
      tag: 'dashboard',
      params: { id: 'The rule id.' },
      ok: { status: 200, description: 'The rule as stored (201 when it is new).', schema: 'RuleStored' },
      errors: ['forbidden', 'invalid_rule', 'too_many_rules'],
    },
  }),
  declare({
    method: 'delete',
    path: '/dashboard/data/rules/{id}',
    handler: dashboardRules.remove,
    access: 'session',
    sameOrigin: true,
    doc: {
      summary: 'Remove a rule from the dashboard',
      description: "Same origin only, with the session's CSRF token in `x-csrf-token`.",
      tag: 'dashboard',
      params: { id: 'The rule id.' },
      ok: { status: 200, description: 'The rule is gone.', schema: 'RuleDeleted' },
      errors: ['forbidden', 'not_found'],
    },
  }),
  declare({
    method: 'post',
    path: '/dashboard/data/rules/preview',
    handler: dashboardRules.preview,
    access: 'session',
    sameOrigin: true,
    body: { kind: 'json', schema: 'RulePreviewRequest', maxBytes: MAX_RULE_BYTES + 1024, parse: rulePreviewBody },
    doc: {
      summary: 'Preview a rule: the answer to a query before and after it (nothing is stored)',
      description: "Body `{\"id\", \"rule\", \"query\"}`: `rule` as PUT /api/rules/{id} takes it, `query` a GET /api/recommendations query string. Same origin only, with the session's CSRF token in `x-csrf-token`.",
      tag: 'dashboard',
      ok: { status: 200, description: 'The answer with the shop\'s rules (`before`) and with the draft in place (`after`).', schema: 'RulePreview' },
      errors: ['forbidden', 'invalid_rule', 'invalid_query', 'invalid_filter'],
    },
  }),
  declare({
    method: 'get',
    path: '/demo/images/{file}',
    handler: getDemoImage,
    access: 'none',
    doc: {
      summary: "A demo product's picture",
      description: "Served whether or not the demo pages are on: it draws from the demo shop's catalog.",
      tag: 'demo',
      params: { file: '<product id>.svg' },
      ok: { status: 200, description: 'An SVG image.', contentType: 'image/svg+xml' },
      errors: ['not_found'],
    },
  }),
  demoPage('Demo storefront: home', (deps) => getDemoHome(deps.demo!), '/demo'),
  demoPage('Demo storefront: a collection', (deps) => getDemoCollection(deps.demo!), '/demo/collections/{handle}', { handle: "The collection's handle." }),
  demoPage('Demo storefront: a product', (deps) => getDemoProduct(deps.demo!), '/demo/products/{handle}', { handle: "The product's handle." }),
  declare({
    method: 'get',
    path: '/demo/{rest}',
    wildcard: true,
    handler: (deps) => getDemoNotFound(deps.demo!),
    headers: DEMO_PAGE_HEADERS,
    access: 'none',
    demo: true,
    doc: {
      summary: 'Demo storefront: any other path, a 404 page in the shop\'s look',
      description: 'Registered as a catch-all under /demo: uWS tries the pages above first.',
      tag: 'demo',
      params: { rest: 'Any path under /demo that no page above answers.' },
      ok: { status: 404, description: 'An HTML page.', contentType: 'text/html; charset=utf-8' },
    },
  }),
  declare({
    method: 'get',
    path: '/demo/sign-in',
    handler: (deps) => getDemoSignIn(deps.demo!),
    access: 'none',
    demo: true,
    doc: {
      summary: 'Demo storefront: act as a sample shopper (or nobody)',
      description: 'Query `shopper` (a sample customerId, or empty to sign out) and `back` (a /demo page to return to); sets a cookie scoped to /demo.',
      tag: 'demo',
      ok: { status: 303, description: 'Back to the demo page.', contentType: 'text/html; charset=utf-8' },
      errors: ['not_found'],
    },
  }),
];
