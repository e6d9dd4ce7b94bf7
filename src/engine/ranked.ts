// Offers candidates by a decayed score: first the maintained top list, then (only when that list
// was exhausted and is incomplete) a scan of the scope, then the scope's unscored products in
// product id order so that a store with no events still gets an answer (modelLevel 0). When the
// pick list's constraints leave few products (PickList.within), the scans look only at those.
import type { DecayedScores } from './decayed-scores.js';
import type { PickList } from './pick-list.js';
import type { Strategy } from './strategy.js';
import type { TieBreak, TopList } from './top-list.js';

function byScore(scores: DecayedScores, tieBreak: TieBreak): (a: number, b: number) => number {
  return (a, b) => scores.raw(b) - scores.raw(a) || tieBreak(a, b);
}

/** The top lists' ids merged in `order` without repeats; lazily, so a full pick stops it early. */
function* mergedTop(tops: readonly TopList[], order: (a: number, b: number) => number): IterableIterator<number> {
  if (tops.length === 1) {
    yield* tops[0]!.ids;
    return;
  }
  const next = tops.map(() => 0);
  const seen = new Set<number>();
  for (;;) {
    let best = -1;
    for (let t = 0; t < tops.length; t++) {
      const ids = tops[t]!.ids;
      while (next[t]! < ids.length && seen.has(ids[next[t]!]!)) next[t]!++;
      if (next[t]! < ids.length && (best === -1 || order(ids[next[t]!]!, tops[best]!.ids[next[best]!]!) < 0)) best = t;
    }
    if (best === -1) return;
    const id = tops[best]!.ids[next[best]!++]!;
    seen.add(id);
    yield id;
  }
}

/** The products a ranking may offer past its top lists. */
export interface RankedScope {
  /** Every one, in tie order (product id order). */
  ordered(): Iterable<number>;
  has(id: number): boolean;
}

export function offerRanked(
  pick: PickList,
  strategy: Strategy,
  scores: DecayedScores,
  now: number,
  tops: readonly TopList[],
  /** Scanned only past the top lists. */
  scope: RankedScope,
  tieBreak: TieBreak,
): void {
  const scale = scores.scaleAt(now);
  const order = byScore(scores, tieBreak);
  for (const id of mergedTop(tops, order)) if (pick.offer(id, scores.raw(id) * scale, strategy)) return;
  let scan: Iterable<number> | undefined;
  // The scope's products the answer could take, when its constraints leave few: instead of the whole scope.
  const scanned = (): Iterable<number> => {
    const within = pick.within();
    if (within === undefined) return scope.ordered();
    if (scan === undefined) {
      const ids: number[] = [];
      within.forEach((id) => {
        if (scope.has(id)) ids.push(id);
      });
      scan = ids.sort(tieBreak);
    }
    return scan;
  };
  if (!tops.every((top) => top.complete)) {
    const rest: number[] = [];
    for (const id of scanned()) if (scores.raw(id) > 0 && pick.accepts(id)) rest.push(id);
    rest.sort(order);
    for (const id of rest) if (pick.offer(id, scores.raw(id) * scale, strategy)) return;
  }
  for (const id of scanned()) if (scores.raw(id) === 0 && pick.offer(id, 0, strategy)) return;
}
