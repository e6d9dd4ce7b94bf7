// Reference for CoOccurrence, in plain Maps: groups as arrays in a Map used as an LRU (re-inserted
// on write, the oldest dropped past the bound), group counts per item, pair weights in
// ReferencePairCounts, decay as 2^((t − landmark)/half-life) with the first event as landmark, and
// each add's weight (a cart's below an order's) scaling its pairs and the item's group count.
import { ReferencePairCounts } from './pair-counts.js';

export class ReferenceCoOccurrence {
  readonly groups = new Map<string, number[]>();
  readonly itemGroups = new Map<number, number>();
  readonly pairs: ReferencePairCounts;
  groupCount = 0;
  landmark: number | undefined;

  constructor(
    kept: number,
    readonly maxGroups: number,
    readonly maxGroupItems: number,
    readonly sliding: boolean,
    readonly halfLifeMs?: number,
  ) {
    this.pairs = new ReferencePairCounts(kept);
  }

  add(groupKey: string, item: number, t: number, addWeight = 1): void {
    let group = this.groups.get(groupKey);
    if (group === undefined) group = [];
    this.groups.delete(groupKey);
    this.groups.set(groupKey, group);
    if (this.groups.size > this.maxGroups) this.groups.delete(this.groups.keys().next().value!);
    if (group.includes(item)) return;
    if (group.length >= this.maxGroupItems) {
      if (!this.sliding) return;
      group.shift();
    }
    if (group.length === 0) this.groupCount++;
    this.itemGroups.set(item, (this.itemGroups.get(item) ?? 0) + addWeight);
    this.landmark ??= t;
    const decay = this.halfLifeMs === undefined ? 1 : 2 ** ((t - this.landmark) * (1 / this.halfLifeMs));
    const weight = (this.sliding ? addWeight / Math.max(1, group.length) : addWeight) * decay;
    for (const other of group) {
      this.pairs.add(item, other, weight);
      this.pairs.add(other, item, weight);
    }
    group.push(item);
  }
}
