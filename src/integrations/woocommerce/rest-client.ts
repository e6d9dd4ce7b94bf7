// A client of WooCommerce's REST API (/wp-json/wc/v3/…) for reading a store page by page, as
// WooCommerce documents it: the consumer key and secret by HTTP Basic auth (over HTTPS), lists of at
// most 100 per page numbered from 1, and how many pages there are in X-WP-TotalPages (X-WP-Total:
// the items). Waits and retries as retrying-get.ts does; WooCommerce sets no call limit of its own.
import { retryingGet, PlatformApiError } from '../retrying-get.js';

export const PER_PAGE = 100;

export interface RestClientOptions {
  /** The store's address (https://shop.example), without /wp-json. */
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

/** One page of a list, and how many pages and items the list has. */
export interface WooPage<T> {
  items: T[];
  totalPages: number;
  total: number;
}

function hint(status: number): string {
  if (status === 401) return 'the consumer key and secret were not accepted (--key ck_… and --secret cs_… of a REST API key with Read access)';
  if (status === 403) return 'the key lacks Read access';
  if (status === 404) return 'no WooCommerce REST API there (check --url, and that permalinks are not "Plain")';
  return 'unexpected answer';
}

export class WooRestClient {
  readonly #base: string;
  readonly #auth: string;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #fetch: typeof fetch;
  requests = 0;

  constructor(options: RestClientOptions) {
    this.#base = `${options.storeUrl.replace(/\/+$/, '')}/wp-json/wc/v3`;
    this.#auth = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#fetch = options.fetch ?? fetch;
  }

  /** Page `page` (from 1) of `resource` ("products", "orders"), in id order so that pages do not shift as items are added. */
  async page<T>(resource: string, page: number, query: Record<string, string> = {}): Promise<WooPage<T>> {
    const url = new URL(`${this.#base}/${resource}`);
    for (const [name, value] of Object.entries({ ...query, per_page: String(PER_PAGE), page: String(page), orderby: 'id', order: 'asc' })) url.searchParams.set(name, value);
    const { body, headers } = await retryingGet(url.toString(), { headers: { authorization: this.#auth }, sleep: this.#sleep, fetch: this.#fetch, hint }, async () => {
      this.requests++;
    });
    if (!Array.isArray(body)) throw new PlatformApiError(`GET ${url} answered 200 with a body that is not a list`);
    const totalPages = Number(headers.get('x-wp-totalpages') ?? '1');
    const total = Number(headers.get('x-wp-total') ?? String(body.length));
    return { items: body as T[], totalPages: Number.isInteger(totalPages) && totalPages >= 0 ? totalPages : 1, total: Number.isFinite(total) ? total : body.length };
  }
}
