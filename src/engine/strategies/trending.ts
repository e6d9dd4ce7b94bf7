// trending: velocity, not all-time popularity. Candidates are the products with the most recent
// weighted events (short half-life); each is scored by that recent volume times its lift, the
// ratio of its recent rate to its long-term rate (14-day half-life), smoothed by a prior of a few
// events per long window. A steady best-seller keeps lift ≈ 1; a product surging today gets a lift
// of up to the ratio of the half-lives. The ranking, at the start of each minute, is cached until
// the next event or minute.
import type { MatchSet } from '../filters/match-set.js';
import type { PickList } from '../pick-list.js';
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

const rankings = new WeakMap<TrendingInputs, TrendingRanking>();

/** The start of the minute `now` is in: the time trending is ranked at. */
function minuteOf(now: number): number {
  return now - (now % CACHE_MS);
}

/** Velocity scores of `ids`, best first (ties by product id). */
function rank(engine: TrendingInputs, ids: Iterable<number>, now: number): { ids: number[]; scores: number[] } {
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

/**
 * The candidates (top by recent volume) ranked by velocity at the start of the minute `now` is in,
 * cached until the next weighted event or minute: every process and node that applied the same log
 * ranks alike within a minute, whenever it is first asked.
 */
function candidates(engine: TrendingInputs, now: number): TrendingRanking {
  // The trending part's stamp, not the event count: held events applied when their product is added count too.
  const stamp = `${engine.storeStamps.at(TRENDING_PART)}:${Math.floor(now / CACHE_MS)}`;
  const cached = rankings.get(engine);
  if (cached?.stamp === stamp) return cached;
  const fresh = { stamp, ...rank(engine, engine.trendingTop.ids, minuteOf(now)) };
  rankings.set(engine, fresh);
  return fresh;
}

/**
 * The offers of trending: the cached candidates; when the top list is incomplete and they cannot
 * fill the answer, the scored products the answer accepts, ranked (rare: heavy filtering); then,
 * a quiet store, the unscored products it accepts, in product id order (model level 0). Past the
 * cached candidates, only the products the pick list's constraints leave are looked at, when
 * they are few (PickList.within); else every scored product, then the catalog.
 */
function offerTrending(engine: TrendingInputs, now: number, pick: PickList): void {
  engine.scratch.reads.read(engine.storeStamps, TRENDING_PART);
  let ranked: { ids: readonly number[]; scores: readonly number[] } = candidates(engine, now);
  if (!engine.trendingTop.complete) {
    const needed = pick.limit - pick.ids.length;
    let usable = 0;
    for (const id of ranked.ids) if (pick.accepts(id) && ++usable >= needed) break;
    if (usable < needed) {
      const within = pick.within();
      ranked = rank(engine, within === undefined ? acceptedScored(engine, pick) : acceptedWithin(engine, pick, within, true), minuteOf(now));
    }
  }
  for (let i = 0; i < ranked.ids.length; i++) if (pick.offer(ranked.ids[i]!, ranked.scores[i]!, 'trending')) return;
  const within = pick.within();
  const unscored = within === undefined ? unscoredInCatalog(engine) : acceptedWithin(engine, pick, within, false).sort(engine.compareIds);
  for (const id of unscored) if (pick.offer(id, 0, 'trending')) return;
}

// A product the pick list refuses now it refuses for the rest of the answer: leaving it out of a
// ranking or a walk changes no offer.

/** Every scored product the answer accepts. */
function acceptedScored(engine: TrendingInputs, pick: PickList): number[] {
  const ids: number[] = [];
  for (const id of engine.trending.positive()) if (pick.accepts(id)) ids.push(id);
  return ids;
}

/** The products of `within` the answer accepts with a positive trending score, or (`withScore` false) with none. */
function acceptedWithin(engine: TrendingInputs, pick: PickList, within: MatchSet, withScore: boolean): number[] {
  const ids: number[] = [];
  within.forEach((id) => {
    const raw = engine.trending.raw(id);
    if ((withScore ? raw > 0 : raw === 0) && pick.accepts(id)) ids.push(id);
  });
  return ids;
}

/** The catalog's products with no trending score, in product id order. */
function* unscoredInCatalog(engine: TrendingInputs): Iterable<number> {
  for (const id of engine.catalog.ordered()) if (engine.trending.raw(id) === 0) yield id;
}

/** What the strategy reads of the shop's models. */
export type TrendingInputs = Pick<ShopEngine, 'catalog' | 'compareIds' | 'popularity' | 'scratch' | 'storeStamps' | 'trending' | 'trendingTop'>;

export const trending: Producer<TrendingInputs> = ({ engine, now }, pick) => offerTrending(engine, now, pick);
