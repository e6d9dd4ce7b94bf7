// A client of Shopify's Admin REST API for reading a shop's resources page by page, as Shopify
// documents it: the access token in X-Shopify-Access-Token; lists of at most 250 per page, the next
// page named by the Link header's rel="next" URL (a page_info cursor); a leaky bucket per app and shop
// reported in X-Shopify-Shop-Api-Call-Limit ("used/size"), kept below its top by waiting; and 429
// answers with Retry-After (seconds), waited for and retried, as are 5xx answers and network errors.
import { PlatformApiError, retryingGet } from '../retrying-get.js';

/** The Admin API version the sync reads (Shopify supports each for at least a year). */
export const DEFAULT_API_VERSION = '2026-10';
export const PAGE_LIMIT = 250;
/** The bucket's leak per second for a standard plan (Shopify Plus leaks faster: waiting for 2 is safe). */
const LEAK_PER_SECOND = 2;
/** Requests kept free in the bucket: pacing starts when fewer are left. */
const HEADROOM = 4;

export interface AdminClientOptions {
  /** `https://<shop>.myshopify.com/admin/api/<version>`, or a stand-in's. */
  apiUrl: string;
  accessToken: string;
  /** Waits `ms` (tests count the waits instead of taking them). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

/** One page of a list: its items, and the URL of the next page (undefined on the last). */
export interface Page<T> {
  items: T[];
  next: string | undefined;
}

/** The base URL of a shop's Admin API: https://<domain>/admin/api/<version>. */
export function adminApiUrl(domain: string, version = DEFAULT_API_VERSION): string {
  return `https://${domain}/admin/api/${version}`;
}

/** The URL of rel="next" in a Link header (`<url>; rel="previous", <url>; rel="next"`), if any. */
export function nextPageUrl(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]+)>\s*;\s*rel="?([a-z]+)"?\s*$/i.exec(part);
    if (match !== null && match[2]!.toLowerCase() === 'next') return match[1];
  }
  return undefined;
}

/** Seconds to wait before the next request so that the bucket ("used/size") keeps HEADROOM free; 0 when it has. */
export function paceSeconds(callLimit: string | null): number {
  const match = callLimit === null ? null : /^(\d+)\/(\d+)$/.exec(callLimit.trim());
  if (match === null) return 0;
  const over = Number(match[1]) - (Number(match[2]) - HEADROOM);
  return over > 0 ? over / LEAK_PER_SECOND : 0;
}

export class AdminClient {
  readonly #base: string;
  readonly #token: string;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #fetch: typeof fetch;
  /** Wait owed before the next request, from the last answer's call limit. */
  #paceMs = 0;
  /** Requests made, retries included. */
  requests = 0;

  constructor(options: AdminClientOptions) {
    this.#base = options.apiUrl.replace(/\/+$/, '');
    this.#token = options.accessToken;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#fetch = options.fetch ?? fetch;
  }

  /** The URL of a resource's first page: `path` under the API, with `query`. */
  url(path: string, query: Record<string, string | number> = {}): string {
    const url = new URL(`${this.#base}/${path.replace(/^\/+/, '')}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** GET `url` as a JSON object, paced by the call limit and retried; throws PlatformApiError on an answer waiting cannot fix. */
  async get(url: string): Promise<{ body: Record<string, unknown>; link: string | null }> {
    const { body, headers } = await retryingGet(
      url,
      {
        headers: { 'x-shopify-access-token': this.#token },
        sleep: this.#sleep,
        fetch: this.#fetch,
        hint,
        onAnswer: (answer) => (this.#paceMs = paceSeconds(answer.get('x-shopify-shop-api-call-limit')) * 1000),
      },
      async () => {
        this.requests++;
        if (this.#paceMs > 0) await this.#sleep(this.#paceMs);
        this.#paceMs = 0;
      },
    );
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new PlatformApiError(`GET ${url} answered 200 with a body that is not a JSON object`);
    return { body: body as Record<string, unknown>, link: headers.get('link') };
  }

  /** One page of the list under `key` (e.g. "products") at `url`. */
  async page<T>(url: string, key: string): Promise<Page<T>> {
    const { body, link } = await this.get(url);
    const items = body[key];
    if (!Array.isArray(items)) throw new PlatformApiError(`GET ${url} answered without a "${key}" list`);
    return { items: items as T[], next: nextPageUrl(link) };
  }

  /** The count at `path` (e.g. "products/count.json"). */
  async count(path: string, query: Record<string, string | number> = {}): Promise<number> {
    const { body } = await this.get(this.url(path, query));
    return typeof body.count === 'number' ? body.count : 0;
  }
}

function hint(status: number): string {
  if (status === 401) return 'the access token was not accepted (--token must be the Admin API access token of the shop\'s custom app, shpat_…)';
  if (status === 403) return 'the access token lacks a scope (the app needs read_products and read_orders)';
  if (status === 404) return 'no such resource (check --domain, and --api-url if given)';
  return 'unexpected answer';
}


