// A client of Shopify's Admin REST API for reading a shop's resources page by page, as Shopify
// documents it: the access token in X-Shopify-Access-Token; lists of at most 250 per page, the next
// page named by the Link header's rel="next" URL (a page_info cursor); a leaky bucket per app and shop
// reported in X-Shopify-Shop-Api-Call-Limit ("used/size"), kept below its top by waiting; and 429
// answers with Retry-After (seconds), waited for and retried, as are 5xx answers and network errors.

/** The Admin API version the sync reads (Shopify supports each for at least a year). */
export const DEFAULT_API_VERSION = '2026-10';
export const PAGE_LIMIT = 250;
/** The bucket's leak per second for a standard plan (Shopify Plus leaks faster: waiting for 2 is safe). */
const LEAK_PER_SECOND = 2;
/** Requests kept free in the bucket: pacing starts when fewer are left. */
const HEADROOM = 4;
/** Attempts of one request that fails with a 5xx, 429 or network error. */
const MAX_ATTEMPTS = 8;
const MAX_RETRY_AFTER_S = 60;

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

/** A failure the sync cannot get past by waiting: the message says what and where. */
export class AdminApiError extends Error {}

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

function retryAfterMs(header: string | null, attempt: number): number {
  const seconds = header === null ? NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, MAX_RETRY_AFTER_S) * 1000;
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_AFTER_S * 1000);
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

  /** GET `url` as JSON, paced and retried; throws AdminApiError on an answer waiting cannot fix. */
  async get(url: string): Promise<{ body: Record<string, unknown>; link: string | null }> {
    for (let attempt = 0; ; attempt++) {
      if (this.#paceMs > 0) await this.#sleep(this.#paceMs);
      this.#paceMs = 0;
      this.requests++;
      let res: Response;
      try {
        res = await this.#fetch(url, { headers: { 'x-shopify-access-token': this.#token, accept: 'application/json' }, redirect: 'error' });
      } catch (error) {
        if (attempt + 1 >= MAX_ATTEMPTS) throw new AdminApiError(`GET ${url} failed ${MAX_ATTEMPTS} times: ${causeOf(error)}`);
        await this.#sleep(retryAfterMs(null, attempt));
        continue;
      }
      this.#paceMs = paceSeconds(res.headers.get('x-shopify-shop-api-call-limit')) * 1000;
      if (res.status === 429 || res.status >= 500) {
        await res.arrayBuffer();
        if (attempt + 1 >= MAX_ATTEMPTS) throw new AdminApiError(`GET ${url} answered ${res.status} ${MAX_ATTEMPTS} times`);
        await this.#sleep(retryAfterMs(res.headers.get('retry-after'), attempt));
        continue;
      }
      const text = await res.text();
      if (res.status !== 200) throw new AdminApiError(`GET ${url} answered ${res.status}: ${hint(res.status)}${errorsOf(text)}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new AdminApiError(`GET ${url} answered 200 without JSON: is --api-url the Admin API of a Shopify shop?`);
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AdminApiError(`GET ${url} answered 200 with a body that is not a JSON object`);
      return { body: body as Record<string, unknown>, link: res.headers.get('link') };
    }
  }

  /** One page of the list under `key` (e.g. "products") at `url`. */
  async page<T>(url: string, key: string): Promise<Page<T>> {
    const { body, link } = await this.get(url);
    const items = body[key];
    if (!Array.isArray(items)) throw new AdminApiError(`GET ${url} answered without a "${key}" list`);
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

function errorsOf(text: string): string {
  try {
    const errors = (JSON.parse(text) as { errors?: unknown }).errors;
    return errors === undefined ? '' : ` (${typeof errors === 'string' ? errors : JSON.stringify(errors)})`;
  } catch {
    return '';
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
