// Answers to recommendation queries, REST and WebSocket alike: the engine's result and its JSON body,
// from the answer cache while nothing the answer read has changed (engine/answer-cache.ts).
import { parseRecommendationQuery, queryKey, type RecommendationQuery } from '../api/recommendation-query.js';
import type { AnswerCacheConfig } from '../config.js';
import { AnswerCache } from '../engine/answer-cache.js';
import { recommend, type Recommendation } from '../engine/recommend.js';
import type { ShopEngines } from '../ingest/shop-engines.js';
import type { Principal } from './auth.js';
import { queryAs, type CustomerIdentity } from './customer-identity.js';
import { recommendationJson } from './render.js';

export interface Answer {
  /** Shared by every request the cache serves it to: never changed after it is made. */
  readonly result: Recommendation;
  /** The GET /api/recommendations body. */
  readonly json: string;
  /** The same body in UTF-8, as it goes on the wire (encoded once, not per request). */
  readonly body: Buffer;
}

/** A query string already parsed for a shop, and its key in the answer cache. */
interface ParsedQuery {
  readonly query: RecommendationQuery;
  readonly key: string;
  /** The query with the customer its proof gave last time (a proven token makes it differ). */
  resolved?: { readonly customerId: string | undefined; readonly query: RecommendationQuery; readonly key: string };
}

/** Query strings whose parse is kept (cleared when full: a flood of unique queries costs only parses). */
const MAX_PARSED_QUERIES = 20_000;
/** Longer query strings are parsed every time, so the memo stays within 20k × 512 characters. */
const MAX_PARSED_QUERY_LENGTH = 512;

/** An answer's size in the cache: its body (UTF-16) and the result objects beside it. */
function answerBytes(answer: Answer): number {
  return answer.json.length * 2 + answer.body.length + 64 + answer.result.items.length * 48;
}

export class Answers {
  readonly cache: AnswerCache<Answer>;
  readonly #parsed = new Map<string, ParsedQuery>();

  constructor(
    readonly engines: ShopEngines,
    options: AnswerCacheConfig,
    readonly identity: CustomerIdentity,
  ) {
    this.cache = new AnswerCache(options.maxBytes, options.maxAgeMs, answerBytes);
  }

  /**
   * The answer to a GET /api/recommendations query string (without '?') for this caller, its
   * customerId kept only when the caller may act as that customer; throws its AppError when invalid.
   */
  forQueryString(principal: Principal, raw: string, now: number): Answer {
    const shopId = principal.shopId;
    const memoKey = shopId + '\u0000' + raw;
    let parsed = this.#parsed.get(memoKey);
    if (parsed === undefined) {
      const outcome = parseRecommendationQuery(raw);
      if (!outcome.ok) throw outcome.error;
      parsed = { query: outcome.query, key: cacheKey(shopId, outcome.query) };
      if (raw.length <= MAX_PARSED_QUERY_LENGTH) {
        if (this.#parsed.size >= MAX_PARSED_QUERIES) this.#parsed.clear();
        this.#parsed.set(memoKey, parsed);
      }
    }
    const query = parsed.query;
    if (query.customerId === undefined && query.customerToken === undefined && principal.appProxySecret === undefined) {
      return this.#answer(shopId, query, parsed.key, now); // nothing to prove
    }
    const customerId = this.identity.customerId(principal, query.customerId, { customerToken: query.customerToken, query: raw }, now);
    if (customerId === query.customerId) return this.#answer(shopId, query, parsed.key, now);
    let resolved = parsed.resolved;
    if (resolved === undefined || resolved.customerId !== customerId) {
      const resolvedQuery = queryAs(query, customerId);
      parsed.resolved = resolved = { customerId, query: resolvedQuery, key: cacheKey(shopId, resolvedQuery) };
    }
    return this.#answer(shopId, resolved.query, resolved.key, now);
  }

  answer(shopId: string, query: RecommendationQuery, now: number): Answer {
    return this.#answer(shopId, query, cacheKey(shopId, query), now);
  }

  #answer(shopId: string, query: RecommendationQuery, key: string, now: number): Answer {
    const engine = this.engines.get(shopId);
    const cached = this.cache.get(engine, key, now);
    if (cached !== undefined) return cached;
    const result = recommend(engine, query, now);
    const json = recommendationJson(result);
    const answer: Answer = { result, json, body: Buffer.from(json) };
    this.cache.set(engine, key, now, answer, engine.scratch.reads);
    return answer;
  }
}

function cacheKey(shopId: string, query: RecommendationQuery): string {
  return shopId + '\u0000' + queryKey(query);
}
