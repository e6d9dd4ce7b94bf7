// GET /api/recommendations query string → a validated RecommendationQuery, or the error to answer with.
import type { tags } from 'typia';
import { AppError, type FieldError } from '../errors.js';
import type { RecommendationRequest } from '../engine/recommend.js';
import { isStrategy, STRATEGIES, type Strategy } from '../engine/strategy.js';
import { normalizeCollectionId, normalizeProductId } from './product-id.js';
import { MAX_FILTER_LENGTH, type FilterError } from '../engine/filters/filter-syntax.js';
import { parseOnce, type ParsedFilters } from '../engine/filters/parsed-filters.js';
import { parseDiversity } from '../engine/filters/diversity.js';

/**
 * The validated query is the engine's request (bare ids, a limit in range, context present), plus
 * the proof of its customerId, which the caller checks (http/customer-identity.ts) before use.
 */
export type RecommendationQuery = RecommendationRequest & { exclude: string[]; customerToken?: string; widgetId?: string };

type ProductIdParam = string & tags.Pattern<'^([A-Za-z0-9][A-Za-z0-9._-]{0,63}|gid://[A-Za-z0-9][A-Za-z0-9-]{0,31}/Product/[A-Za-z0-9][A-Za-z0-9._-]{0,63})$'>;
/** Up to 24 product ids, comma-separated. */
type ProductIdsParam = string & tags.Pattern<'^([A-Za-z0-9][A-Za-z0-9._-]{0,63}|gid://[A-Za-z0-9][A-Za-z0-9-]{0,31}/Product/[A-Za-z0-9][A-Za-z0-9._-]{0,63})(,([A-Za-z0-9][A-Za-z0-9._-]{0,63}|gid://[A-Za-z0-9][A-Za-z0-9-]{0,31}/Product/[A-Za-z0-9][A-Za-z0-9._-]{0,63})){0,23}$'>;
type CollectionIdParam = string & tags.Pattern<'^([A-Za-z0-9][A-Za-z0-9._-]{0,63}|gid://[A-Za-z0-9][A-Za-z0-9-]{0,31}/Collection/[A-Za-z0-9][A-Za-z0-9._-]{0,63})$'>;

/**
 * The query parameters parseRecommendationQuery reads, as the OpenAPI document shows them (its
 * parameters are generated from this type). The parser is hand-written (it runs per request and
 * answers with specific codes); test/api/recommendation-params.test.ts holds the two together.
 */
export interface RecommendationParams {
  /** Omitted: chosen from the context given (productId or productIds → bought-together, collectionId → collection-popular, a shopper with history → personalized, else trending). */
  strategy?: Strategy;
  /** The context product, bare (123) or gid://shopify/Product/123; needed by bought-together and similar (or productIds). */
  productId?: ProductIdParam;
  /**
   * A cart as the context: comma-separated product ids, bare or gid, at most 24 (with productId, one
   * context of at most 24). bought-together answers with the products that go with the cart as a
   * whole, similar with products like its products; the cart's products never come back. Its order
   * does not matter, and a cart of one product is that product (productId).
   */
  productIds?: ProductIdsParam;
  /** The context collection, bare or gid; needed by collection-popular. */
  collectionId?: CollectionIdParam;
  /** The logged-in shopper; needed by personalized and recently-viewed. With a public key it counts only with customerToken or an app-proxy signature. */
  customerId?: string & tags.MaxLength<128>;
  /** Proof of customerId minted by the merchant's server; alone, it names the customer. */
  customerToken?: string & tags.MaxLength<400>;
  /** (Extension) the browser session; stands in for customerId for anonymous shoppers. */
  sessionId?: string & tags.MaxLength<128>;
  limit?: number & tags.Type<'uint32'> & tags.Minimum<1> & tags.Maximum<24> & tags.Default<8>;
  /** Comma-separated product ids (bare or gid, at most 100) never to return. */
  exclude?: string;
  /** The placement asking (at most 64 characters): an experiment running on it picks this shopper's variant. */
  widgetId?: string & tags.MaxLength<64>;
  /**
   * Only products this filter selects, backfill included (at most 512 characters), e.g.
   * `vendor:"Acme" AND price < 50 AND NOT tag:clearance AND (collection:summer OR collection:beach)`;
   * relative to the context product: `same:vendor`, `different:productType`, `price:0.5x..2x`. The
   * answer may then hold fewer than `limit` items (meta.count).
   */
  filters?: string & tags.MaxLength<512>;
  /** At most this many items share a value of the attribute: `vendor:2` (vendor, productType or a custom attribute). */
  diversity?: string & tags.Pattern<'^[A-Za-z][A-Za-z0-9_]{0,63}:[1-9][0-9]?$'>;
  /** The `position` of a write acknowledgement: the answer waits (bounded) until the server answering has applied it (also as the Pairwise-After header). */
  after?: string & tags.MaxLength<32>;
}

export const DEFAULT_LIMIT = 8;
export const MAX_LIMIT = 24;
export const MAX_EXCLUDE = 100;
/** Products in one context (productId and productIds together): a cart a storefront shows. */
export const MAX_CONTEXT_PRODUCTS = 24;
export { MAX_FILTER_LENGTH };
const MAX_SHOPPER_ID = 128;
const MAX_CUSTOMER_TOKEN = 400;
/** As an event's widgetId (and an experiment's): the placement asking. */
const MAX_WIDGET_ID = 64;

export type QueryParse = { ok: true; query: RecommendationQuery } | { ok: false; error: AppError };

/** Which context each strategy needs (productId: productIds does too); customer strategies also accept our sessionId extension. */
const REQUIRED_CONTEXT: Readonly<Record<Strategy, 'productId' | 'collectionId' | 'shopper' | undefined>> = {
  'bought-together': 'productId',
  similar: 'productId',
  'collection-popular': 'collectionId',
  personalized: 'shopper',
  'recently-viewed': 'shopper',
  trending: undefined,
};

function fail(code: 'invalid_strategy' | 'invalid_limit' | 'missing_context' | 'invalid_query', detail: string, pointer: string): QueryParse {
  const errors: FieldError[] = [{ pointer, detail }];
  return { ok: false, error: new AppError(code, detail, errors) };
}

/** The 400 of a filters= or diversity= parameter, naming where it goes wrong and what was expected. */
export function filterError(parameter: 'filters' | 'diversity', error: FilterError): AppError {
  const detail = `${parameter}: ${error.detail}`;
  return new AppError(parameter === 'filters' ? 'invalid_filter' : 'invalid_diversity', detail, [{ pointer: `/${parameter}`, detail: error.detail, position: error.position, expected: error.expected }]);
}

/** First non-empty value of each parameter; the raw query string as uWS gives it (no leading '?'). */
function readParams(raw: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(raw)) {
    if (value !== '' && !params.has(key)) params.set(key, value);
  }
  return params;
}

function parseLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,3}$/.test(raw)) return undefined;
  const limit = Number(raw);
  return limit >= 1 && limit <= MAX_LIMIT ? limit : undefined;
}

/**
 * Never throws: every bad input becomes an AppError with a stable code. `filters`: where recent
 * filter texts are kept parsed (none: each is parsed here).
 */
export function parseRecommendationQuery(raw: string, filters?: ParsedFilters): QueryParse {
  const params = readParams(raw);
  const strategyRaw = params.get('strategy');
  if (strategyRaw !== undefined && !isStrategy(strategyRaw)) {
    return fail('invalid_strategy', `strategy must be one of ${STRATEGIES.join(', ')}`, '/strategy');
  }
  const strategy = strategyRaw as Strategy | undefined;
  const limit = parseLimit(params.get('limit'));
  if (limit === undefined) return fail('invalid_limit', `limit must be an integer from 1 to ${MAX_LIMIT}`, '/limit');

  const query: RecommendationQuery = { limit, exclude: [] };
  if (strategy !== undefined) query.strategy = strategy;
  const productRaw = params.get('productId');
  if (productRaw !== undefined) {
    const productId = normalizeProductId(productRaw);
    if (productId === undefined) return fail('invalid_query', 'productId must be a product id such as 123 or gid://shopify/Product/123', '/productId');
    query.productId = productId;
  }
  const productsRaw = params.get('productIds');
  if (productsRaw !== undefined) {
    const cart = parseProductIds(productsRaw, query.productId);
    if (typeof cart === 'string') return fail('invalid_query', cart, '/productIds');
    // One context: a single product is productId, two or more are productIds, sorted (the cache keys on the set).
    if (cart.length === 1) query.productId = cart[0]!;
    else if (cart.length > 1) {
      delete query.productId;
      query.productIds = cart;
    }
  }
  const collectionRaw = params.get('collectionId');
  if (collectionRaw !== undefined) {
    const collectionId = normalizeCollectionId(collectionRaw);
    if (collectionId === undefined) return fail('invalid_query', 'collectionId must be a collection id such as 42 or gid://shopify/Collection/42', '/collectionId');
    query.collectionId = collectionId;
  }
  for (const name of ['customerId', 'sessionId'] as const) {
    const value = params.get(name);
    if (value === undefined) continue;
    if (value.length > MAX_SHOPPER_ID) return fail('invalid_query', `${name} must be at most ${MAX_SHOPPER_ID} characters`, `/${name}`);
    query[name] = value;
  }
  const token = params.get('customerToken');
  if (token !== undefined) {
    if (token.length > MAX_CUSTOMER_TOKEN) return fail('invalid_query', `customerToken must be at most ${MAX_CUSTOMER_TOKEN} characters`, '/customerToken');
    query.customerToken = token;
  }
  const widgetId = params.get('widgetId');
  if (widgetId !== undefined) {
    if (widgetId.length > MAX_WIDGET_ID) return fail('invalid_query', `widgetId must be at most ${MAX_WIDGET_ID} characters`, '/widgetId');
    query.widgetId = widgetId;
  }
  const excludeRaw = params.get('exclude');
  if (excludeRaw !== undefined) {
    const ids = excludeRaw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (ids.length > MAX_EXCLUDE) return fail('invalid_query', `exclude holds at most ${MAX_EXCLUDE} ids`, '/exclude');
    for (const id of ids) {
      const bare = normalizeProductId(id);
      if (bare === undefined) return fail('invalid_query', `exclude has an invalid product id "${id.slice(0, 80)}"`, '/exclude');
      query.exclude.push(bare);
    }
  }
  const filterRaw = params.get('filters');
  if (filterRaw !== undefined) {
    const filter = filters === undefined ? parseOnce(filterRaw) : filters.parse(filterRaw);
    if (!filter.ok) return { ok: false, error: filterError('filters', filter.error) };
    query.filter = filter.filter;
  }
  const diversityRaw = params.get('diversity');
  if (diversityRaw !== undefined) {
    const diversity = parseDiversity(diversityRaw, MAX_LIMIT);
    if (!diversity.ok) return { ok: false, error: filterError('diversity', diversity.error) };
    query.diversity = diversity.diversity;
  }
  if (strategy !== undefined) {
    const needs = REQUIRED_CONTEXT[strategy];
    if (needs === 'shopper' && query.customerId === undefined && query.sessionId === undefined && query.customerToken === undefined && !params.has('logged_in_customer_id')) {
      return fail('missing_context', `strategy ${strategy} needs customerId (or sessionId)`, '/customerId');
    }
    if ((needs === 'productId' || needs === 'collectionId') && query[needs] === undefined && (needs !== 'productId' || query.productIds === undefined)) {
      return fail('missing_context', `strategy ${strategy} needs ${needs}`, `/${needs}`);
    }
  }
  return { ok: true, query };
}

/**
 * A productIds list (with `productId`, if any, as one context) as distinct bare ids, sorted; or
 * what is wrong with it. Empty entries (a trailing comma) are skipped.
 */
export function parseProductIds(raw: string, productId: string | undefined): string[] | string {
  const ids = new Set<string>();
  if (productId !== undefined) ids.add(productId);
  for (const part of raw.split(',')) {
    const id = part.trim();
    if (id === '') continue;
    const bare = normalizeProductId(id);
    if (bare === undefined) return `productIds has an invalid product id "${id.slice(0, 80)}": ids such as 123 or gid://shopify/Product/123`;
    ids.add(bare);
    if (ids.size > MAX_CONTEXT_PRODUCTS) return `productIds holds at most ${MAX_CONTEXT_PRODUCTS} products (with productId)`;
  }
  return [...ids].sort();
}

/**
 * Equal for queries the engine answers identically (ids already normalized; exclude as a set; a cart
 * as a set, sorted by the parser).
 * widgetId is left out: it changes an answer only through an experiment, whose arm is keyed apart.
 */
export function queryKey(query: RecommendationQuery): string {
  return JSON.stringify([
    query.strategy ?? '',
    query.productId ?? '',
    query.productIds?.join(',') ?? '',
    query.collectionId ?? '',
    query.customerId ?? '',
    query.sessionId ?? '',
    query.limit,
    [...new Set(query.exclude)].sort(),
    query.filter?.text ?? '',
    query.diversity === undefined ? '' : `${query.diversity.attribute}:${query.diversity.max}`,
  ]);
}
