// Offers candidates by a decayed score: first the maintained top list, then (only when that list
// was exhausted and is incomplete) a scan of the scope, then the scope's unscored products in
// catalog order so that a store with no events still gets an answer (modelLevel 0).
import type { DecayedScores } from './decayed-scores.js';
import type { PickList } from './pick-list.js';
import type { Strategy } from './strategy.js';
import type { TopList } from './top-list.js';

function mergedTop(tops: readonly TopList[], scores: DecayedScores): readonly number[] {
  if (tops.length === 1) return tops[0]!.ids;
  const ids = [...new Set(tops.flatMap((top) => top.ids))];
  return ids.sort((a, b) => scores.raw(b) - scores.raw(a));
}

export function offerRanked(
  pick: PickList,
  strategy: Strategy,
  scores: DecayedScores,
  now: number,
  tops: readonly TopList[],
  scope: () => Iterable<number>,
): void {
  const scale = scores.scaleAt(now);
  for (const id of mergedTop(tops, scores)) if (pick.offer(id, scores.raw(id) * scale, strategy)) return;
  if (!tops.every((top) => top.complete)) {
    const rest: number[] = [];
    for (const id of scope()) if (scores.raw(id) > 0 && pick.accepts(id)) rest.push(id);
    rest.sort((a, b) => scores.raw(b) - scores.raw(a));
    for (const id of rest) if (pick.offer(id, scores.raw(id) * scale, strategy)) return;
  }
  for (const id of scope()) if (scores.raw(id) === 0 && pick.offer(id, 0, strategy)) return;
}
