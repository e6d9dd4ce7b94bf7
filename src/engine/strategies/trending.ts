// trending: velocity, not all-time popularity. Candidates are the products with the most recent
// weighted events (short half-life); each is scored by that recent volume times its lift, the
// ratio of its recent rate to its long-term rate (14-day half-life), smoothed by a prior of a few
// events per long window. A steady best-seller keeps lift ≈ 1; a product surging today gets a lift
// of up to the ratio of the half-lives. The ranking is cached until the next event or minute.
import type { MatchSet } from '../filters/match-set.js';
import { TRENDING_PART, type ShopEngine } from '../shop-engine.js';
import type { Producer } from './context.js';

/** Weighted events per long window that smooth the lift (keeps one-off events from soaring). */
const PRIOR_EVENTS = 3;
const CACHE_MS = 60_000;

interface TrendingRanking {
  stamp: string;
  ids: number[];
  scores: number[];
}

const rankings = new WeakMap<ShopEngine, TrendingRanking>();

/** Velocity scores of `ids`, best first (ties by product id). */
function rank(engine: ShopEngine, ids: Iterable<number>, now: number): { ids: number[]; scores: number[] } {
  const short = engine.trending;
  const long = engine.popularity;
  const shortScale = short.scaleAt(now);
  const longScale = long.scaleAt(now);
  // Decayed sums → rates per ms: a sum S with half-life h holds about S·ln2/h per ms.
  const shortRate = Math.LN2 / short.halfLifeMs;
  const longRate = Math.LN2 / long.halfLifeMs;
  const prior = (PRIOR_EVENTS * Math.LN2) / long.halfLifeMs;
  const scored: [number, number][] = [];
  for (const id of ids) {
    const recent = short.raw(id) * shortScale;
    const lift = (recent * shortRate + prior) / (long.raw(id) * longScale * longRate + prior);
    scored.push([id, recent * lift]);
  }
  scored.sort((a, b) => b[1] - a[1] || engine.compareIds(a[0], b[0]));
  return { ids: scored.map((s) => s[0]), scores: scored.map((s) => s[1]) };
}

/** The candidates (top by recent volume) ranked by velocity, cached until the next weighted event or minute. */
function candidates(engine: ShopEngine, now: number): TrendingRanking {
  // The trending part's stamp, not the event count: held events applied when their product is added count too.
  const stamp = `${engine.storeStamps.at(TRENDING_PART)}:${Math.floor(now / CACHE_MS)}`;
  const cached = rankings.get(engine);
  if (cached?.stamp === stamp) return cached;
  const fresh = { stamp, ...rank(engine, engine.trendingTop.ids, now) };
  rankings.set(engine, fresh);
  return fresh;
}

export const trending: Producer = ({ engine, now }, pick) => {
  engine.scratch.reads.read(engine.storeStamps, TRENDING_PART);
  let ranked: { ids: readonly number[]; scores: readonly number[] } = candidates(engine, now);
  // Products beyond the candidates have scores too when the top list is incomplete: if the
  // candidates cannot fill this answer, rank every scored product (rare: heavy filtering).
  if (!engine.trendingTop.complete) {
    const needed = pick.limit - pick.ids.length;
    let usable = 0;
    for (const id of ranked.ids) if (pick.accepts(id) && ++usable >= needed) break;
    if (usable < needed) ranked = rank(engine, engine.trending.positive(), now);
  }
  for (let i = 0; i < ranked.ids.length; i++) if (pick.offer(ranked.ids[i]!, ranked.scores[i]!, 'trending')) return;
  // A quiet store: the catalog's unscored products, in product id order (model level 0).
  for (const id of engine.catalog.ordered()) if (engine.trending.raw(id) === 0 && pick.offer(id, 0, 'trending')) return;
};

/**
 * trending for an answer that only a filter's few products may enter (answer-shaping.ts: a selective
 * filter): the same offers in the same order as `trending`, but where that one would rank every
 * scored product or walk the catalog to find products the answer accepts, this one looks only at
 * the selection's products. Cost: the cached candidates, then at most the selection.
 */
export function trendingWithin(selection: MatchSet): Producer {
  return ({ engine, now }, pick) => {
    engine.scratch.reads.read(engine.storeStamps, TRENDING_PART);
    let ranked: { ids: readonly number[]; scores: readonly number[] } = candidates(engine, now);
    if (!engine.trendingTop.complete) {
      const needed = pick.limit - pick.ids.length;
      let usable = 0;
      for (const id of ranked.ids) if (pick.accepts(id) && ++usable >= needed) break;
      if (usable < needed) {
        const scored: number[] = [];
        selection.forEach((id) => {
          if (engine.trending.raw(id) > 0 && pick.accepts(id)) scored.push(id);
        });
        ranked = rank(engine, scored, now);
      }
    }
    for (let i = 0; i < ranked.ids.length; i++) if (pick.offer(ranked.ids[i]!, ranked.scores[i]!, 'trending')) return;
    const unscored: number[] = [];
    selection.forEach((id) => {
      if (engine.trending.raw(id) === 0 && pick.accepts(id)) unscored.push(id);
    });
    unscored.sort(engine.compareIds);
    for (const id of unscored) if (pick.offer(id, 0, 'trending')) return;
  };
}
