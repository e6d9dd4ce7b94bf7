// Collects a response's items in order, skipping what must never be returned (blocked ids,
// products missing from the catalog or unavailable), anything already picked, and whatever a
// constraint of the answer's shape refuses (answer-shaping.ts: filters, diversity). When the
// constraints leave few products, it says which (within), so that a strategy's last resort walks
// those instead of the catalog.
import type { CandidateConstraint } from './candidate-constraint.js';
import type { Catalog } from './catalog.js';
import type { DenseSet } from './dense-set.js';
import type { MatchSet } from './filters/match-set.js';
import { STRATEGY_LEVEL, type ModelLevel, type Strategy } from './strategy.js';

/**
 * Constraints leaving at most this many products are selective: a strategy's last resort (ranking
 * every scored product, walking the catalog) looks only at those products (PickList.within).
 */
export const SELECTIVE_FILTER_MAX = 2048;

export class PickList {
  readonly ids: number[] = [];
  readonly scores: number[] = [];
  readonly strategies: Strategy[] = [];
  /** The model level behind each item: 0 when it had no behavioural signal. */
  readonly levels: ModelLevel[] = [];
  /** within(), once asked (null: not yet). */
  #within: MatchSet | undefined | null = null;

  /**
   * @param blocked dense ids never to return; picked ids are added to it.
   * @param constraints asked before each pick and told of it (none: the plain path, no calls)
   */
  constructor(
    readonly limit: number,
    readonly catalog: Catalog,
    readonly blocked: DenseSet,
    readonly constraints: readonly CandidateConstraint[] = [],
  ) {}

  get full(): boolean {
    return this.ids.length >= this.limit;
  }

  /** Items still wanted. */
  get remaining(): number {
    return this.limit - this.ids.length;
  }

  /** Whether `id` could still be picked. */
  accepts(id: number): boolean {
    // Kept this small so that it inlines into the strategies' loops; constraints only when there are some.
    return !this.blocked.has(id) && this.catalog.isAvailable(id) && (this.constraints.length === 0 || this.#admitted(id));
  }

  #admitted(id: number): boolean {
    const constraints = this.constraints;
    for (let i = 0; i < constraints.length; i++) if (!constraints[i]!.admits(id)) return false;
    return true;
  }

  /**
   * Offers a candidate; returns true once the list is full. `level` defaults to the strategy's
   * model level when the candidate has a score, 0 when it has none.
   */
  offer(id: number, score: number, strategy: Strategy, level: ModelLevel = score > 0 ? STRATEGY_LEVEL[strategy] : 0): boolean {
    if (this.ids.length < this.limit && this.accepts(id)) {
      this.blocked.add(id);
      if (this.constraints.length > 0) this.#picked(id);
      this.ids.push(id);
      this.scores.push(score);
      this.strategies.push(strategy);
      this.levels.push(level);
    }
    return this.ids.length >= this.limit;
  }

  /**
   * The products the answer could ever take, as a set, when its constraints leave at most
   * SELECTIVE_FILTER_MAX of them; undefined when they leave more, or cannot say (no constraint
   * holds a set). Every product `accepts` takes now or later is in it (blocked ones may be too).
   * Made once per pick list, only when a strategy is about to walk past its ranked candidates:
   * each constraint's set narrows it in turn, and the first that makes it selective ends it.
   * Do not modify it.
   */
  within(): MatchSet | undefined {
    if (this.#within !== null) return this.#within;
    let products: MatchSet | undefined;
    for (const constraint of this.constraints) {
      if (constraint.narrow === undefined) continue;
      products = constraint.narrow(products);
      if (products.count() <= SELECTIVE_FILTER_MAX) break;
    }
    this.#within = products !== undefined && products.count() <= SELECTIVE_FILTER_MAX ? products : undefined;
    return this.#within;
  }

  #picked(id: number): void {
    for (let i = 0; i < this.constraints.length; i++) this.constraints[i]!.picked(id);
  }
}
