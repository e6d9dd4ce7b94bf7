// A local stand-in for a WooCommerce store's REST API (/wp-json/wc/v3/), speaking its documented
// format: HTTP Basic auth with the consumer key and secret (401 with WooCommerce's error body
// otherwise), lists of at most 100 (default 10) by page number with X-WP-Total and X-WP-TotalPages
// (and a Link header), orderby/order, and orders filtered by `after` (GMT with dates_are_gmt=true).
// Its store is generated in WooCommerce's payload shapes, not ours.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prng } from '../../src/demo/prng.js';

type Json = Record<string, unknown>;

export interface WooStore {
  products: Json[];
  orders: Json[];
}

const CATEGORIES = ['Clothing', 'T-shirts', 'Hoodies', 'Accessories', 'Music', 'Posters'];
const STATUSES = ['processing', 'processing', 'completed', 'completed', 'completed', 'pending', 'on-hold', 'cancelled', 'refunded', 'failed'];

function gmt(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');
}

/** `products` products (some on sale, out of stock or drafts) and `orders` orders over the `days` days before `now` in every status. */
export function generateWooStore(options: { products: number; orders: number; now: number; days?: number; seed?: number }): WooStore {
  const random = prng(options.seed ?? 11);
  const days = options.days ?? 120;
  const products: Json[] = [];
  for (let i = 0; i < options.products; i++) {
    const id = 1000 + i;
    const regular = (5 + Math.floor(random() * 9000) / 100).toFixed(2);
    const onSale = random() < 0.25;
    const price = onSale ? (Number(regular) * 0.8).toFixed(2) : regular;
    const modified = options.now - random() * 200 * 86_400_000;
    const category = Math.floor(random() * CATEGORIES.length);
    const roll = random();
    products.push({
      id,
      name: `Product ${i}`,
      slug: `product-${i}`,
      permalink: `https://shop.example/product/product-${i}/`,
      date_created_gmt: gmt(modified - 86_400_000),
      date_modified: gmt(modified - 3 * 3_600_000),
      date_modified_gmt: gmt(modified),
      type: 'simple',
      status: roll < 0.05 ? 'draft' : 'publish',
      featured: false,
      catalog_visibility: 'visible',
      description: `<p>Product ${i}</p>`,
      sku: `SKU-${i}`,
      price,
      regular_price: regular,
      sale_price: onSale ? price : '',
      on_sale: onSale,
      purchasable: true,
      manage_stock: true,
      stock_quantity: 5,
      stock_status: roll > 0.9 ? 'outofstock' : 'instock',
      categories: [{ id: 10 + category, name: CATEGORIES[category], slug: CATEGORIES[category]!.toLowerCase() }],
      tags: [{ id: 50 + (i % 7), name: `tag-${i % 7}`, slug: `tag-${i % 7}` }],
      images: [{ id: 5000 + i, src: `https://shop.example/wp-content/uploads/p${i}.jpg`, name: '', alt: '' }],
      attributes: [],
      variations: [],
      meta_data: [],
    });
  }
  const orders: Json[] = [];
  for (let o = 0; o < options.orders; o++) {
    const id = 20_000 + o;
    const created = options.now - (1 - o / options.orders) * days * 86_400_000;
    const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, l) => {
      const product = products[Math.floor(random() * products.length)]!;
      const deleted = random() < 0.03;
      return { id: id * 10 + l, name: product.name, product_id: deleted ? 0 : product.id, variation_id: 0, quantity: 1 + Math.floor(random() * 2), subtotal: product.price, total: product.price, sku: product.sku, price: Number(product.price), meta_data: [] };
    });
    orders.push({
      id,
      parent_id: 0,
      number: String(id),
      status: STATUSES[Math.floor(random() * STATUSES.length)],
      currency: 'USD',
      date_created_gmt: gmt(created),
      date_modified_gmt: gmt(created + 60_000),
      date_paid_gmt: gmt(created + 30_000),
      customer_id: random() < 0.15 ? 0 : 300 + Math.floor(random() * (options.orders / 3)),
      total: lines.reduce((sum, l) => sum + l.price * l.quantity, 0).toFixed(2),
      line_items: lines,
    });
  }
  return { products, orders };
}

export interface WooStandIn {
  /** The store's address, as --url takes it. */
  url: string;
  requests: { url: string; status: number }[];
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

export async function startWooStandIn(store: WooStore, credentials: { key: string; secret: string }): Promise<WooStandIn> {
  const requests: WooStandIn['requests'] = [];
  const failures: number[] = [];
  let base = '';
  const expected = `Basic ${Buffer.from(`${credentials.key}:${credentials.secret}`).toString('base64')}`;

  function send(res: ServerResponse, path: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
    requests.push({ url: path, status });
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname + url.search;
    const failure = failures.shift();
    if (failure !== undefined) return send(res, path, failure, { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: failure } });
    if (req.headers.authorization !== expected) {
      return send(res, path, 401, { code: 'woocommerce_rest_cannot_view', message: 'Sorry, you cannot list resources.', data: { status: 401 } });
    }
    const match = /^\/wp-json\/wc\/v3\/(products|orders)$/.exec(url.pathname);
    if (req.method !== 'GET' || match === null) return send(res, path, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    const perPage = Number(url.searchParams.get('per_page') ?? '10');
    const page = Number(url.searchParams.get('page') ?? '1');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return send(res, path, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page', data: { status: 400, params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } } });
    }
    let items = match[1] === 'products' ? store.products : store.orders;
    const after = url.searchParams.get('after');
    if (after !== null) {
      const since = Date.parse(url.searchParams.get('dates_are_gmt') === 'true' ? `${after}Z` : after);
      items = items.filter((item) => Date.parse(`${String(item.date_created_gmt)}Z`) > since);
    }
    if (url.searchParams.get('orderby') === 'id') items = [...items].sort((a, b) => ((a.id as number) - (b.id as number)) * (url.searchParams.get('order') === 'desc' ? -1 : 1));
    const totalPages = Math.ceil(items.length / perPage);
    const links: string[] = [];
    const at = (p: number) => {
      const link = new URL(url);
      link.searchParams.set('page', String(p));
      return link.toString();
    };
    if (page > 1) links.push(`<${at(page - 1)}>; rel="prev"`);
    if (page < totalPages) links.push(`<${at(page + 1)}>; rel="next"`);
    send(res, path, 200, items.slice((page - 1) * perPage, page * perPage), { 'x-wp-total': String(items.length), 'x-wp-totalpages': String(totalPages), ...(links.length > 0 ? { link: links.join(', ') } : {}) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    failNext(count, status) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
