// Answers to recommendation queries, REST and WebSocket alike: the engine's result and its JSON body,
// from the answer cache while nothing the answer read has changed (engine/answer-cache.ts).
import { queryKey, type RecommendationQuery } from '../api/recommendation-query.js';
import { AnswerCache } from '../engine/answer-cache.js';
import { recommend, type Recommendation } from '../engine/recommend.js';
import type { ShopEngines } from '../ingest/shop-engines.js';
import { recommendationJson } from './render.js';

export interface Answer {
  /** Shared by every request the cache serves it to: never changed after it is made. */
  readonly result: Recommendation;
  /** The GET /api/recommendations body. */
  readonly json: string;
}

export interface AnswerCacheOptions {
  /** Bytes of all cached answers together; 0 turns the cache off. */
  maxBytes: number;
  /** Longest a cached answer is served after it was computed (scores decay with time alone). */
  maxAgeMs: number;
}

/** An answer's size in the cache: its body (UTF-16) and the result objects beside it. */
function answerBytes(answer: Answer): number {
  return answer.json.length * 2 + 64 + answer.result.items.length * 48;
}

export class Answers {
  readonly cache: AnswerCache<Answer>;

  constructor(
    readonly engines: ShopEngines,
    options: AnswerCacheOptions,
  ) {
    this.cache = new AnswerCache(options.maxBytes, options.maxAgeMs, answerBytes);
  }

  answer(shopId: string, query: RecommendationQuery, now: number): Answer {
    const engine = this.engines.get(shopId);
    const key = shopId + '\u0000' + queryKey(query);
    const cached = this.cache.get(engine, key, now);
    if (cached !== undefined) return cached;
    const result = recommend(engine, query, now);
    const answer: Answer = { result, json: recommendationJson(result) };
    this.cache.set(engine, key, now, answer, engine.scratch.reads);
    return answer;
  }
}
