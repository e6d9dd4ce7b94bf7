// Items that occur together in groups — baskets (an order, a session's cart) or a shopper's recent
// history: per item a fixed-capacity neighbour row (NeighborTable: the strongest K kept), the
// number of groups each item joined, and the bounded table of open groups. Memory grows with
// items × K and the group bound, never with events. Pair weights may decay with time (forward
// decay against a landmark, as DecayedScores does), so that last month's pairs outrank last year's;
// decaying rows also keep each pair's undecayed total, the evidence behind it however old.
import type { ChangeClock } from './change-stamps.js';
import { Stamps } from './change-stamps.js';
import type { GroupTable, GroupTableSnapshot } from './group-table.js';
import { NeighborTable, type NeighborTableData } from './neighbor-table.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

/** Past this exponent of 2 pair weights are re-based (float32 reaches 2^127; counts need room too). */
const MAX_EXPONENT = 64;

export interface CoOccurrenceSnapshot {
  pairs: NeighborTableData;
  /** Landmark of decayed pair weights (epoch ms), null before the first pair. */
  landmark: number | null;
  /** Groups each item joined, by dense id (Float64Array bytes). */
  itemGroups: Uint8Array;
  /** The open groups, by slot (their slot table is restored by its owner). */
  groups: GroupTableSnapshot;
  groupCount: number;
}

/** Pair count at which a pair is taken as half signal, half chance. */
const SIGNIFICANT_COUNT = 3;

/**
 * How far a pair seen together `total` times (undecayed) stands from noise, 0 to 1: (c/(c+3))².
 * A pair seen once is mostly chance however recent it is; one seen often stays credible as it ages.
 */
export function pairSignificance(total: number): number {
  const share = total / (total + SIGNIFICANT_COUNT);
  return share * share;
}

/** Levels per doubling of a group count (groupLevel): a level spans a factor √2. */
const LEVELS_PER_DOUBLING = 2;

/** The level of a group count: floor(2·log2 n), 0 below 1.41. It moves about twice per doubling of n. */
export function groupLevel(groups: number): number {
  return Math.floor(LEVELS_PER_DOUBLING * Math.log2(Math.max(1, groups)));
}

/**
 * Just under the smallest count of each level: one comparison per add tells whether a count may
 * have reached its next level (groupLevel then decides), instead of a logarithm per add.
 */
const LEVEL_STARTS = Float64Array.from({ length: 64 }, (_, level) => 2 ** (level / LEVELS_PER_DOUBLING) * (1 - 1e-9));

/** The group count a level stands for: the geometric middle of its range. */
export function levelGroups(level: number): number {
  return 2 ** ((level + 0.5) / LEVELS_PER_DOUBLING);
}

/** A decayed pair's strength: its weight, discounted by how unsure it is. */
const decayedStrength = (weight: number, total: number): number => weight * pairSignificance(total);

export class CoOccurrence {
  readonly pairs: NeighborTable;
  /** Groups each item joined, each counted at its add's weight (a sliding group counts again each time an item re-enters it). */
  #itemGroups = new Float64Array(0);
  /**
   * #itemGroups in float32 while every count is exactly one (counts of whole shoppers, of orders
   * and carts at their weights: sums of 1 and ½ below 2^23), else null. Scoring a long history reads
   * thousands of counts at random: half the bytes keep more of them in the CPU's cache, same values.
   */
  #compactGroups: Float32Array | null = new Float32Array(0);
  /** groupLevel of each item's group count (derived from #itemGroups: rebuilt on restore). */
  #itemLevels = new Uint8Array(0);
  #groupCount = 0;
  /** Per item: the last change of its neighbour row or of its group count. */
  readonly stamps: Stamps;
  /**
   * Per item: the last change of its group count's level. A model that needs a count only roughly
   * (bought-together's best-seller discount) reads these, and its cached answers stay exact while
   * the items it returned keep selling within their level: most sales no longer touch them.
   */
  readonly levelStamps: Stamps;
  /** 1 / half-life of pair weights in ms; 0: weights do not decay. */
  readonly #decayPerMs: number;
  #landmark: number | undefined;

  /**
   * @param groups the open groups; their capacity is the items a group pairs at most: a full
   *   basket ignores further items (bulk orders say little), a `sliding` group (a shopper's
   *   history) forgets its oldest item and weighs each new pair by 1/(items already in the
   *   group), as RP3β does: a shopper who touched many products says less about each pair than
   *   one who touched three.
   * @param pairHalfLifeMs half-life of pair weights; undefined: they never decay
   */
  constructor(
    clock: ChangeClock,
    readonly groups: GroupTable,
    maxNeighbors: number,
    readonly sliding = false,
    pairHalfLifeMs?: number,
  ) {
    // Decaying pairs keep their undecayed totals too (the evidence behind a pair does not fade
    // with its age), and a full row keeps the pairs strongest by weight × significance.
    this.pairs = pairHalfLifeMs === undefined ? new NeighborTable(maxNeighbors) : new NeighborTable(maxNeighbors, true, decayedStrength);
    this.stamps = new Stamps(clock);
    this.levelStamps = new Stamps(clock);
    this.#decayPerMs = pairHalfLifeMs === undefined ? 0 : 1 / pairHalfLifeMs;
  }

  /**
   * Adds `item` to the group in `slot` at event time `t`; a repeat of an item still in the group
   * counts once. `weight` scales what this add contributes (its pairs and the item's group count):
   * the engine weighs a cart below an order.
   */
  add(slot: number, item: number, t: number, weight = 1): void {
    const groups = this.groups;
    if (groups.has(slot, item)) return;
    if (groups.size(slot) >= groups.capacity) {
      if (!this.sliding) return;
      groups.shift(slot);
    }
    const size = groups.size(slot);
    if (size === 0) this.#groupCount++;
    this.#itemGroups = grownTo(this.#itemGroups, item + 1);
    this.#itemGroups[item] += weight;
    this.#mirror(item);
    this.stamps.mark(item);
    // Counts only grow, so a level only rises.
    this.#itemLevels = grownTo(this.#itemLevels, item + 1);
    if (this.#itemGroups[item]! >= LEVEL_STARTS[this.#itemLevels[item]! + 1]!) {
      const level = groupLevel(this.#itemGroups[item]!);
      if (level !== this.#itemLevels[item]) {
        this.#itemLevels[item] = level;
        this.levelStamps.mark(item);
      }
    }
    const pairTotal = this.sliding ? weight / Math.max(1, size) : weight;
    const pairWeight = pairTotal * this.#growth(t);
    const start = groups.start(slot);
    for (let i = start; i < start + size; i++) {
      const other = groups.items[i]!;
      this.pairs.add(item, other, pairWeight, pairTotal);
      this.pairs.add(other, item, pairWeight, pairTotal);
      this.stamps.mark(other);
    }
    groups.push(slot, item);
  }

  /**
   * Puts `item` in the group in `slot` without counting any pair or group (they were counted when it
   * first joined): a rebuilt shopper's window, refilled from the log.
   */
  refill(slot: number, item: number): void {
    const groups = this.groups;
    if (groups.has(slot, item)) return;
    if (groups.size(slot) >= groups.capacity) {
      if (!this.sliding) return;
      groups.shift(slot);
    }
    groups.push(slot, item);
  }

  /**
   * How often two items were together as stored: weighted for sliding groups, and in units of the
   * landmark when weights decay (multiply by scaleAt(now) for a decayed count); 0 if never or pruned.
   */
  together(a: number, b: number): number {
    return this.pairs.weight(a, b);
  }

  /** How often two items were together as stored, never decayed (weighted as adds were); 0 if never or pruned. */
  total(a: number, b: number): number {
    return this.pairs.total(a, b);
  }

  /** Multiply a stored pair weight by this for its decayed weight at `now` (1 when weights do not decay). */
  scaleAt(now: number): number {
    return this.#decayPerMs === 0 || this.#landmark === undefined ? 1 : 2 ** ((this.#landmark - now) * this.#decayPerMs);
  }

  /** groupsOf of every item as one array (index < its length; hot loops read it directly). */
  get groupCounts(): Float64Array {
    return this.#itemGroups;
  }

  /** The same counts, as float32 when that holds every one exactly (the hottest loops read these). */
  get compactGroupCounts(): Float32Array | Float64Array {
    return this.#compactGroups ?? this.#itemGroups;
  }

  /** Copies the item's count into #compactGroups, dropping the float32 copy for good once a count does not fit it exactly. */
  #mirror(item: number): void {
    if (this.#compactGroups === null) return;
    this.#compactGroups = grownTo(this.#compactGroups, this.#itemGroups.length);
    this.#compactGroups[item] = this.#itemGroups[item]!;
    if (this.#compactGroups[item] !== this.#itemGroups[item]) this.#compactGroups = null;
  }

  /** Number of groups `item` joined (weighted as its adds were). */
  groupsOf(item: number): number {
    return item < this.#itemGroups.length ? this.#itemGroups[item]! : 0;
  }

  /** groupLevel(groupsOf(item)), kept as groups are counted. */
  levelOf(item: number): number {
    return item < this.#itemLevels.length ? this.#itemLevels[item]! : 0;
  }

  /** Jaccard index of two items' groups: together / (groups of a + groups of b − together). */
  jaccard(a: number, together: number, b: number): number {
    return together / (this.groupsOf(a) + this.groupsOf(b) - together);
  }

  get groupCount(): number {
    return this.#groupCount;
  }

  snapshot(): CoOccurrenceSnapshot {
    let used = this.#itemGroups.length;
    while (used > 0 && this.#itemGroups[used - 1] === 0) used--;
    return {
      pairs: this.pairs.export(),
      landmark: this.#landmark ?? null,
      itemGroups: bytesOf(this.#itemGroups.subarray(0, used)),
      groups: this.groups.snapshot(),
      groupCount: this.#groupCount,
    };
  }

  restore(snapshot: CoOccurrenceSnapshot): void {
    this.pairs.import(snapshot.pairs);
    this.#landmark = snapshot.landmark ?? undefined;
    this.#itemGroups = fromBytes(Float64Array, snapshot.itemGroups);
    this.#itemLevels = new Uint8Array(this.#itemGroups.length);
    this.#compactGroups = new Float32Array(this.#itemGroups.length);
    for (let item = 0; item < this.#itemGroups.length; item++) {
      this.#itemLevels[item] = groupLevel(this.#itemGroups[item]!);
      this.#mirror(item);
    }
    this.groups.restore(snapshot.groups);
    this.#groupCount = snapshot.groupCount;
  }

  /** The forward-decay factor of a pair at time t: 2^((t − landmark)/half-life), re-basing far from the landmark. */
  #growth(t: number): number {
    if (this.#decayPerMs === 0) return 1;
    if (this.#landmark === undefined) this.#landmark = t;
    const exponent = (t - this.#landmark) * this.#decayPerMs;
    if (exponent <= MAX_EXPONENT) return 2 ** exponent;
    // Float32 weights hold up to 2^127: move the landmark to t and shrink every weight to match.
    this.pairs.scale(2 ** -exponent);
    this.#landmark = t;
    return 1;
  }
}
