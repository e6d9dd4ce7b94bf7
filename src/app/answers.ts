// Answers to recommendation queries, REST and WebSocket alike: the engine's result and its JSON body,
// from the answer cache while nothing the answer read has changed (engine/answer-cache.ts).
// Every delivery of an answer gets its own meta.recId (engine/attribution/rec-id.ts), spliced in after the
// cached body's bytes rather than rendered again: a cache hit stays a lookup and one write.
import { filterError, parseRecommendationQuery, queryKey, type RecommendationQuery } from '../api/recommendation-query.js';
import { shapeFor } from '../engine/answer-shaping.js';
import type { AnswerCacheConfig } from '../config.js';
import { AnswerCache } from '../engine/answer-cache.js';
import { recIdPrefix } from '../engine/attribution/rec-id.js';
import { ParsedFilters } from '../engine/filters/parsed-filters.js';
import { RecIdIssuer } from './rec-id-issuer.js';
import { experimentId, variantName } from '../analytics/statistics.js';
import { recommend, requestContext, type Recommendation } from '../engine/recommend.js';
import type { Arm, Experiments } from './experiments.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { ShopFace } from '../engine/shop-face.js';
import type { Principal } from './principal.js';
import { queryAs, type CustomerIdentity } from './customer-identity.js';
import { recommendationJson } from './render.js';

export interface Answer {
  /** Shared by every request the cache serves it to: never changed after it is made. */
  readonly result: Recommendation;
  /**
   * The GET /api/recommendations body without its recId, in UTF-8 and less its closing `}}`, as it
   * goes on the wire (encoded once, not per request; deliveries add the recId: see Answers.body/json).
   * Only these bytes are kept, not the body as a string too: a cache filling at thousands of answers
   * a second had each answer's text copied by every young-generation collection it survived.
   */
  readonly head: Buffer;
  /** `,"recId":"rec_<strategy>_<experiment>_<variant>_`: the recId's fixed part, before its serial. */
  readonly recPrefix: string;
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

/** An answer's size in the cache: its body's bytes and the result objects beside it. */
function answerBytes(answer: Answer): number {
  return answer.head.length + answer.recPrefix.length * 2 + 64 + answer.result.items.length * 48;
}

/** The end of a body whose read waited for a write in vain. */
const STALE_TAIL = '","stale":true}}';

export class Answers {
  readonly cache: AnswerCache<Answer>;
  readonly #parsed = new Map<string, ParsedQuery>();
  /** The recent `filters=` texts, parsed: queries too long for #parsed, or too varied, share them. */
  readonly #filters = new ParsedFilters();
  readonly #recIds = new RecIdIssuer();
  /** Where REST bodies are assembled (head + recId); grown to the largest body, reused by every request. */
  #scratch = Buffer.allocUnsafe(16 * 1024);

  constructor(
    readonly engines: ShopEngines,
    options: AnswerCacheConfig,
    readonly identity: CustomerIdentity,
    /** Running experiments by placement: a request naming one gets its variant's strategy. */
    readonly experiments?: Experiments,
    /** Called before an answer for a customer: refills one whose state was evicted (ingest/customer-rebuild.ts). */
    readonly refill?: (shopId: string, customerId: string) => void,
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
      const outcome = parseRecommendationQuery(raw, this.#filters);
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

  /**
   * The answer's body with a fresh recId, in a scratch buffer shared by every call: valid until the
   * next call, so hand it to a synchronous write at once (uWS copies what it cannot send right away).
   * `stale`: the read asked for a write this process had not applied within its wait (meta.stale).
   */
  body(answer: Answer, stale = false): Uint8Array {
    const head = answer.head;
    const tail = answer.recPrefix + this.#recIds.next() + (stale ? STALE_TAIL : '"}}');
    const length = head.length + tail.length; // the tail is ASCII: one byte per character
    if (this.#scratch.length < length) this.#scratch = Buffer.allocUnsafe(Math.max(length, this.#scratch.length * 2));
    head.copy(this.#scratch, 0);
    this.#scratch.write(tail, head.length, 'latin1');
    return this.#scratch.subarray(0, length);
  }

  /** The answer's body with a fresh recId, as a string (WebSocket frames). */
  json(answer: Answer): string {
    return answer.head.toString('utf8') + answer.recPrefix + this.#recIds.next() + '"}}';
  }

  answer(shopId: string, query: RecommendationQuery, now: number): Answer {
    return this.#answer(shopId, query, cacheKey(shopId, query), now);
  }

  /**
   * Answers are computed at the start of the answer cache's age window that `now` falls in, not at
   * `now` itself: every server process then computes the same answer from the same log within a
   * window (decayed scores move with the clock alone), and a cached answer is exact until its
   * window ends. The time a fresh answer is computed at is at most maxAgeMs behind the clock, and
   * never before the latest edge of a rule's validity window (so a rule starts and ends on time).
   */
  #answerTime(now: number, engine: ShopFace): number {
    const window = this.cache.maxAgeMs;
    // Not before the last edge of a rule's window: an answer holds what is in force at `now`.
    return Math.max(window > 0 ? now - (now % window) : now, engine.lastRuleEdge(now));
  }

  #answer(shopId: string, query: RecommendationQuery, key: string, now: number): Answer {
    const arm = this.experiments?.arm(shopId, query.widgetId, query.customerId ?? query.sessionId);
    if (arm !== undefined) {
      // The variant's strategy in place of the request's; its answers are cached apart.
      query = { ...query, strategy: arm.strategy };
      key += `\u0000${arm.experiment}/${arm.variant}`;
    }
    if (query.customerId !== undefined) this.refill?.(shopId, query.customerId);
    const engine = this.engines.get(shopId);
    const clock = now;
    now = this.#answerTime(clock, engine);
    // Rules may match on the placement: then its answers are cached apart.
    if (query.widgetId !== undefined && engine.rulesMatchPlacements) key += '\u0000w' + query.widgetId;
    const cached = this.cache.get(engine, key, now);
    if (cached !== undefined) return cached;
    const shaped = shapeFor(engine, query, requestContext(engine, query));
    if (!shaped.ok) throw filterError(shaped.parameter, shaped.error);
    const result = recommend(engine, query, now, shaped.shape);
    const answer = render(result, arm);
    // One computed after a rule's edge holds only to its window's end, as one computed at the window's start.
    const window = this.cache.maxAgeMs;
    const reads = engine.lastAnswerReads();
    if (window > 0) reads.expiresAt = Math.min(reads.expiresAt, clock - (clock % window) + window);
    this.cache.set(engine, key, now, answer, reads);
    return answer;
  }
}

/** The answer's body (meta naming the experiment and variant, if any) and its recId's fixed part. */
function render(result: Recommendation, arm: Arm | undefined): Answer {
  let json = recommendationJson(result);
  if (arm !== undefined) json = json.slice(0, -2) + `,"experiment":"${experimentId(arm.experiment)}","variant":"${variantName(arm.variant)}"}}`;
  const recPrefix = `,"recId":"${recIdPrefix(result.strategy, arm?.experiment, arm?.variant)}`;
  return { result, head: Buffer.from(json.slice(0, -2)), recPrefix };
}

function cacheKey(shopId: string, query: RecommendationQuery): string {
  return shopId + '\u0000' + queryKey(query);
}
