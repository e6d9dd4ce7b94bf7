// A local stand-in for a Shopify shop's Admin REST API, speaking its documented format: resources
// under /admin/api/<version>/, the access token in X-Shopify-Access-Token (401 with Shopify's error
// body otherwise), lists of at most 250 (default 50) paginated by cursor with a Link header
// (`<…page_info=…>; rel="previous", <…>; rel="next"`, and a page_info request may carry only limit
// and fields), orders filtered by status (open by default) and created_at_min, counts, collections
// and their products, and the leaky bucket reported in X-Shopify-Shop-Api-Call-Limit, answered 429
// with Retry-After when full. Its shop is generated in Shopify's payload shapes, not ours.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prng } from '../../src/demo/prng.js';

type Json = Record<string, unknown>;

export interface StandInShop {
  products: Json[];
  orders: Json[];
  customCollections: Json[];
  smartCollections: Json[];
  /** Collection id → the ids of its products. */
  members: Map<number, number[]>;
}

const VENDORS = ['Acme', 'Hearth & Co', 'Northwind', 'Juniper', 'Brightside', 'Oak & Iron'];
const TYPES = ['Mug', 'Apron', 'Candle', 'Blanket', 'Lamp', 'Notebook', 'Vase'];
const WORDS = ['linen', 'stoneware', 'cotton', 'rustic', 'midnight', 'sage', 'amber', 'coastal', 'alpine', 'velvet'];

function iso(ms: number): string {
  // Shopify writes local times with an offset; the shop is in UTC-04:00.
  return new Date(ms - 4 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '-04:00');
}

/**
 * A shop of `products` products (1-4 variants, 0-3 images, some drafts, archived or sold out), 15
 * collections (12 custom, 3 smart) and `orders` orders over the `days` days before `now` (1-4 line
 * items, some custom items, guest checkouts, test and cancelled orders, and some with the widget's
 * recIds in their note attributes).
 */
export function generateShop(options: { products: number; orders: number; now: number; days?: number; seed?: number }): StandInShop {
  const random = prng(options.seed ?? 7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const days = options.days ?? 120;
  const products: Json[] = [];
  for (let i = 0; i < options.products; i++) {
    const id = 7_000_000_000 + i;
    const created = options.now - (200 + random() * 100) * 86_400_000;
    const updated = created + random() * 150 * 86_400_000;
    const variants = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, v) => {
      const tracked = random() < 0.7;
      const price = (5 + Math.floor(random() * 9000) / 100).toFixed(2);
      return {
        id: 40_000_000_000 + i * 10 + v,
        product_id: id,
        title: v === 0 ? 'Default Title' : `Option ${v}`,
        price,
        sku: `SKU-${i}-${v}`,
        position: v + 1,
        inventory_policy: random() < 0.2 ? 'continue' : 'deny',
        compare_at_price: random() < 0.3 ? (Number(price) * 1.25).toFixed(2) : null,
        fulfillment_service: 'manual',
        inventory_management: tracked ? 'shopify' : null,
        option1: v === 0 ? 'Default Title' : `Option ${v}`,
        option2: null,
        option3: null,
        created_at: iso(created),
        updated_at: iso(updated),
        taxable: true,
        barcode: null,
        grams: 200,
        image_id: null,
        weight: 0.2,
        weight_unit: 'kg',
        inventory_item_id: 50_000_000_000 + i * 10 + v,
        inventory_quantity: random() < 0.15 ? 0 : Math.floor(random() * 50),
        old_inventory_quantity: 0,
        requires_shipping: true,
        admin_graphql_api_id: `gid://shopify/ProductVariant/${40_000_000_000 + i * 10 + v}`,
      };
    });
    const images = Array.from({ length: Math.floor(random() * 4) }, (_, m) => ({
      id: 30_000_000_000 + i * 10 + m,
      alt: null,
      position: m + 1,
      product_id: id,
      created_at: iso(created),
      updated_at: iso(created),
      admin_graphql_api_id: `gid://shopify/ProductImage/${30_000_000_000 + i * 10 + m}`,
      width: 800,
      height: 800,
      src: `https://cdn.shopify.com/s/files/1/0000/0001/products/p${i}-${m}.jpg?v=1`,
      variant_ids: [],
    }));
    const type = pick(TYPES);
    const title = `${pick(WORDS)} ${pick(WORDS)} ${type} ${i}`.replace(/^./, (c) => c.toUpperCase());
    const roll = random();
    products.push({
      id,
      title,
      body_html: `<p>${title}</p>`,
      vendor: pick(VENDORS),
      product_type: type,
      created_at: iso(created),
      handle: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      updated_at: iso(updated),
      published_at: roll < 0.03 ? null : iso(created),
      template_suffix: null,
      published_scope: 'global',
      tags: [pick(WORDS), pick(WORDS), type.toLowerCase()].join(', '),
      status: roll < 0.05 ? 'draft' : roll < 0.08 ? 'archived' : 'active',
      admin_graphql_api_id: `gid://shopify/Product/${id}`,
      variants,
      options: [{ id: 60_000_000_000 + i, product_id: id, name: 'Title', position: 1, values: variants.map((v) => v.title) }],
      images,
      image: images[0] ?? null,
    });
  }
  const customCollections: Json[] = [];
  const smartCollections: Json[] = [];
  const members = new Map<number, number[]>();
  for (let c = 0; c < 15; c++) {
    const id = 800_000_000 + c;
    const collection = {
      id,
      handle: `collection-${c}`,
      title: `Collection ${c}`,
      updated_at: iso(options.now - 86_400_000),
      body_html: '',
      published_at: iso(options.now - 300 * 86_400_000),
      sort_order: 'best-selling',
      template_suffix: null,
      published_scope: 'web',
      admin_graphql_api_id: `gid://shopify/Collection/${id}`,
    };
    if (c < 12) customCollections.push(collection);
    else smartCollections.push({ ...collection, disjunctive: false, rules: [{ column: 'type', relation: 'equals', condition: TYPES[c - 12] }] });
    members.set(
      id,
      products.filter((p) => (c < 12 ? random() < 0.15 : p.product_type === TYPES[c - 12])).map((p) => p.id as number),
    );
  }
  const orders: Json[] = [];
  const customers = Array.from({ length: Math.max(1, Math.floor(options.orders / 3)) }, (_, k) => 6_000_000_000 + k);
  for (let o = 0; o < options.orders; o++) {
    const id = 5_000_000_000 + o;
    const created = options.now - (1 - o / options.orders) * days * 86_400_000;
    const guest = random() < 0.1;
    const customerId = pick(customers);
    const items = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, l) => {
      const custom = random() < 0.05;
      const product = pick(products);
      const variant = (product.variants as Json[])[0]!;
      return {
        id: 90_000_000_000 + o * 10 + l,
        admin_graphql_api_id: `gid://shopify/LineItem/${90_000_000_000 + o * 10 + l}`,
        fulfillable_quantity: 1,
        fulfillment_service: 'manual',
        fulfillment_status: null,
        gift_card: false,
        grams: 200,
        name: custom ? 'Engraving' : `${product.title as string} - ${variant.title as string}`,
        price: custom ? '12.00' : (variant.price as string),
        product_exists: !custom,
        product_id: custom ? null : product.id,
        quantity: 1 + Math.floor(random() * 3),
        requires_shipping: !custom,
        sku: custom ? '' : variant.sku,
        taxable: true,
        title: custom ? 'Engraving' : product.title,
        total_discount: '0.00',
        variant_id: custom ? null : variant.id,
        variant_title: custom ? null : variant.title,
        vendor: custom ? null : product.vendor,
      };
    });
    const withRecs = random() < 0.2 && items[0]!.product_id !== null;
    const cancelled = random() < 0.03;
    orders.push({
      id,
      admin_graphql_api_id: `gid://shopify/Order/${id}`,
      cancel_reason: cancelled ? 'customer' : null,
      cancelled_at: cancelled ? iso(created + 3_600_000) : null,
      closed_at: null,
      confirmed: true,
      created_at: iso(created),
      currency: 'USD',
      email: guest ? 'guest@example.com' : `customer${customerId}@example.com`,
      financial_status: cancelled ? 'refunded' : 'paid',
      fulfillment_status: null,
      name: `#${1001 + o}`,
      note: null,
      note_attributes: withRecs ? [{ name: '_pairwise_recs', value: JSON.stringify({ [String(items[0]!.product_id)]: ['rec_b_0_0_standin', 'pdp'] }) }] : [],
      number: 1 + o,
      order_number: 1001 + o,
      processed_at: iso(created),
      source_name: 'web',
      test: random() < 0.01,
      total_price: items.reduce((sum, item) => sum + Number(item.price) * item.quantity, 0).toFixed(2),
      updated_at: iso(created + 60_000),
      customer: guest ? null : { id: customerId, email: `customer${customerId}@example.com`, admin_graphql_api_id: `gid://shopify/Customer/${customerId}` },
      line_items: items,
    });
  }
  return { products, orders, customCollections, smartCollections, members };
}

export interface StandInOptions {
  accessToken: string;
  apiVersion?: string;
  /** The leaky bucket: its size and how many requests leak out a second (Shopify's standard: 40 and 2). */
  bucketSize?: number;
  leakPerSecond?: number;
  /** Milliseconds on the stand-in's clock (default: real time); tests advance a fake one as the client sleeps. */
  clock?: () => number;
}

export interface StandIn {
  /** The Admin API's base URL: http://127.0.0.1:<port>/admin/api/<version>. */
  apiUrl: string;
  /** Every request served, in order: its path with its query, and the status answered. */
  requests: { url: string; status: number }[];
  /** The next `count` requests are answered `status` (a 5xx, or 429 with Retry-After) before they are looked at. */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

const MAX_LIMIT = 250;
const DEFAULT_LIMIT = 50;

function encodeCursor(offset: number, query: Json): string {
  return Buffer.from(JSON.stringify({ offset, query })).toString('base64url');
}

function decodeCursor(cursor: string): { offset: number; query: Json } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset: number; query: Json };
    return Number.isInteger(parsed.offset) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function startShopifyStandIn(shop: StandInShop, options: StandInOptions): Promise<StandIn> {
  const version = options.apiVersion ?? '2026-10';
  const size = options.bucketSize ?? 40;
  const leak = options.leakPerSecond ?? 2;
  const clock = options.clock ?? (() => performance.now());
  let level = 0;
  let leakedAt = clock();
  const requests: StandIn['requests'] = [];
  const failures: number[] = [];
  let base = '';

  function send(res: ServerResponse, url: string, status: number, body: Json, headers: Record<string, string> = {}): void {
    requests.push({ url, status });
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-shopify-shop-api-call-limit': `${Math.ceil(level)}/${size}`, ...headers });
    res.end(JSON.stringify(body));
  }

  function page(res: ServerResponse, url: URL, key: string, all: Json[], filters: readonly string[]): void {
    const params = Object.fromEntries(url.searchParams);
    const limit = Math.min(Number(params.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
    if (!Number.isInteger(limit) || limit < 1) return send(res, url.pathname + url.search, 400, { errors: { limit: 'Limit must be a positive integer' } });
    let query: Json = params;
    let offset = 0;
    if (params.page_info !== undefined) {
      const extra = Object.keys(params).filter((name) => !['page_info', 'limit', 'fields'].includes(name));
      if (extra.length > 0) return send(res, url.pathname + url.search, 400, { errors: { page_info: `page_info cannot be used with ${extra.join(', ')}` } });
      const cursor = decodeCursor(params.page_info);
      if (cursor === undefined) return send(res, url.pathname + url.search, 400, { errors: { page_info: 'Invalid value.' } });
      ({ offset, query } = cursor);
    }
    let items = all;
    if (filters.includes('status')) {
      const status = (query.status as string | undefined) ?? 'open';
      items = items.filter((o) => status === 'any' || (status === 'cancelled' ? o.cancelled_at !== null : o.cancelled_at === null));
    }
    if (filters.includes('created_at_min') && query.created_at_min !== undefined) {
      const min = Date.parse(query.created_at_min as string);
      items = items.filter((o) => Date.parse(o.created_at as string) >= min);
    }
    const slice = items.slice(offset, offset + limit);
    const fields = params.fields?.split(',');
    const shown = fields === undefined ? slice : slice.map((item) => Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]])));
    const links: string[] = [];
    const linkParams = (at: number) => `limit=${limit}${fields ? `&fields=${fields.join(',')}` : ''}&page_info=${encodeCursor(at, query)}`;
    if (offset > 0) links.push(`<${base}${url.pathname}?${linkParams(Math.max(0, offset - limit))}>; rel="previous"`);
    if (offset + limit < items.length) links.push(`<${base}${url.pathname}?${linkParams(offset + limit)}>; rel="next"`);
    send(res, url.pathname + url.search, 200, { [key]: shown }, links.length > 0 ? { link: links.join(', ') } : {});
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname + url.search;
    const failure = failures.shift();
    if (failure !== undefined) return send(res, path, failure, { errors: failure === 429 ? 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' : 'Internal Server Error' }, failure === 429 ? { 'retry-after': '2.0' } : {});
    if (req.headers['x-shopify-access-token'] !== options.accessToken) {
      return send(res, path, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    const now = clock();
    level = Math.max(0, level - ((now - leakedAt) / 1000) * leak);
    leakedAt = now;
    if (level + 1 > size) return send(res, path, 429, { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' }, { 'retry-after': '2.0' });
    level += 1;
    const prefix = `/admin/api/${version}/`;
    if (req.method !== 'GET' || !url.pathname.startsWith(prefix)) return send(res, path, 404, { errors: 'Not Found' });
    const resource = url.pathname.slice(prefix.length);
    const members = /^collections\/(\d+)\/products\.json$/.exec(resource);
    if (members !== null) {
      const ids = shop.members.get(Number(members[1]));
      if (ids === undefined) return send(res, path, 404, { errors: 'Not Found' });
      const byId = new Map(shop.products.map((p) => [p.id as number, p]));
      return page(res, url, 'products', ids.map((id) => byId.get(id)!).filter((p) => p.status === 'active'), []);
    }
    switch (resource) {
      case 'products.json':
        return page(res, url, 'products', shop.products, []);
      case 'products/count.json':
        return send(res, path, 200, { count: shop.products.length });
      case 'orders.json':
        return page(res, url, 'orders', shop.orders, ['status', 'created_at_min']);
      case 'orders/count.json': {
        const status = url.searchParams.get('status') ?? 'open';
        const min = url.searchParams.get('created_at_min');
        const count = shop.orders.filter((o) => (status === 'any' || o.cancelled_at === null) && (min === null || Date.parse(o.created_at as string) >= Date.parse(min))).length;
        return send(res, path, 200, { count });
      }
      case 'custom_collections.json':
        return page(res, url, 'custom_collections', shop.customCollections, []);
      case 'smart_collections.json':
        return page(res, url, 'smart_collections', shop.smartCollections, []);
      default:
        return send(res, path, 404, { errors: 'Not Found' });
    }
  }

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${base}/admin/api/${version}`,
    requests,
    failNext(count, status) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
