// All in-memory model state of one shop and the one place events and catalog changes enter it.
// Pure and synchronous: time comes from the event, never from a clock.
import type { EngineConfig } from '../config.js';
import { Catalog } from './catalog.js';
import { CoOccurrence, type CoOccurrenceSnapshot } from './co-occurrence.js';
import { ContentIndex } from './content-index.js';
import { DecayedScores, type DecayedScoresSnapshot } from './decayed-scores.js';
import { Dismissals } from './dismissals.js';
import type { EngineEvent } from './event.js';
import type { Product } from './product.js';
import { RecentViews } from './recent-views.js';
import { ShopperAffinities } from './shopper-affinity.js';
import { customerKey, sessionKey, type ShopperKey } from './shopper-map.js';
import { TopList } from './top-list.js';

/**
 * Everything events built, as plain data: restoring it and then upserting the catalog gives an
 * engine that answers exactly as the one it was taken from. `config` must match the engine's.
 */
export interface EngineSnapshot {
  version: 1;
  /** JSON of the engine config it was taken with: a snapshot of another config is not used. */
  config: string;
  ids: string[];
  eventCount: number;
  trending: DecayedScoresSnapshot;
  popularity: DecayedScoresSnapshot;
  recentViews: [string, number[], number[]][];
  dismissals: [string, [number, number][]][];
  baskets: CoOccurrenceSnapshot;
  shopperItems: CoOccurrenceSnapshot;
  coViews: CoOccurrenceSnapshot;
  affinities: [string, [number, number][], number[], number][];
}

export class ShopEngine {
  readonly catalog = new Catalog();
  /** Store-wide trending: weighted counts decayed with the trending half-life. */
  readonly trending: DecayedScores;
  readonly trendingTop: TopList;
  /** Longer-memory popularity, ranked within each collection. */
  readonly popularity: DecayedScores;
  readonly #collectionTops = new Map<string, TopList>();
  readonly recentViews: RecentViews;
  readonly dismissals: Dismissals;
  /** Products together in an order (metadata.orderId) or in one session's cart. */
  readonly baskets: CoOccurrence;
  /** Products together in one shopper's recent history: the similarity behind personalized. */
  readonly shopperItems: CoOccurrence;
  readonly affinities: ShopperAffinities;
  /** Products viewed or clicked in the same session: the behaviour behind similar. */
  readonly coViews: CoOccurrence;
  readonly content = new ContentIndex();
  #eventCount = 0;

  constructor(readonly config: EngineConfig) {
    this.trending = new DecayedScores(config.trendingHalfLifeMs);
    this.trendingTop = new TopList(this.trending, config.topListSize, this.compareIds);
    this.popularity = new DecayedScores(config.popularityHalfLifeMs);
    this.recentViews = new RecentViews(config.recentViewsPerShopper, config.maxShoppers);
    this.dismissals = new Dismissals(config.dismissTtlMs, config.maxShoppers);
    this.baskets = new CoOccurrence(config.maxNeighbors, config.maxShoppers, MAX_BASKET_ITEMS);
    this.shopperItems = new CoOccurrence(config.maxNeighbors, config.maxShoppers, config.historyPerShopper, true);
    this.affinities = new ShopperAffinities(config.affinityHalfLifeMs, config.historyPerShopper, config.maxShoppers);
    this.coViews = new CoOccurrence(config.maxNeighbors, config.maxShoppers, SESSION_VIEW_WINDOW, true);
  }

  /** Tie order of every ranking: by product id, whatever order things arrived in. */
  readonly compareIds = (a: number, b: number): number => this.catalog.compareIds(a, b);

  get eventCount(): number {
    return this.#eventCount;
  }

  snapshot(): EngineSnapshot {
    return {
      version: 1,
      config: JSON.stringify(this.config),
      ids: [...this.catalog.internedIds()],
      eventCount: this.#eventCount,
      trending: this.trending.snapshot(),
      popularity: this.popularity.snapshot(),
      recentViews: this.recentViews.snapshot(),
      dismissals: this.dismissals.snapshot(),
      baskets: this.baskets.snapshot(),
      shopperItems: this.shopperItems.snapshot(),
      coViews: this.coViews.snapshot(),
      affinities: this.affinities.snapshot(),
    };
  }

  /** An engine rebuilt from a snapshot, before its catalog is upserted; undefined if the config differs. */
  static restore(config: EngineConfig, snapshot: EngineSnapshot): ShopEngine | undefined {
    if (snapshot.version !== 1 || snapshot.config !== JSON.stringify(config)) return undefined;
    const engine = new ShopEngine(config);
    engine.catalog.restoreIds(snapshot.ids);
    engine.#eventCount = snapshot.eventCount;
    engine.trending.restore(snapshot.trending);
    engine.popularity.restore(snapshot.popularity);
    engine.trendingTop.rebuild(engine.trending.positive());
    engine.recentViews.restore(snapshot.recentViews);
    engine.dismissals.restore(snapshot.dismissals);
    engine.baskets.restore(snapshot.baskets);
    engine.shopperItems.restore(snapshot.shopperItems);
    engine.coViews.restore(snapshot.coViews);
    engine.affinities.restore(snapshot.affinities);
    return engine;
  }

  apply(event: EngineEvent): void {
    this.#eventCount++;
    const id = this.catalog.intern(event.productId);
    const t = event.timestamp;
    const keys = shopperKeys(event.customerId, event.sessionId);
    if (event.type === 'dismiss') {
      for (const key of keys) this.dismissals.record(key, id, t);
      return;
    }
    if (event.type === 'view' || event.type === 'click') {
      for (const key of keys) this.recentViews.record(key, id, t);
      this.coViews.add(sessionKey(event.sessionId), id);
    }
    if (event.type === 'purchase' || event.type === 'add_to_cart') this.baskets.add(basketKey(event), id);
    const weight = this.config.eventWeights[event.type];
    if (weight <= 0) return;
    // The customer's history when logged in, else the session's: one shopper, one history.
    const shopper = keys[0]!;
    this.affinities.record(shopper, id, weight, t, event.type === 'purchase');
    this.shopperItems.add(shopper, id);
    this.trending.add(id, weight, t);
    this.trendingTop.touch(id);
    this.popularity.add(id, weight, t);
    for (const collectionId of this.catalog.product(id)?.collections ?? []) this.#collectionTop(collectionId).touch(id);
  }

  upsertProduct(product: Product): void {
    const change = this.catalog.upsert(product);
    this.content.index(change.dense, product);
    for (const c of change.removed) this.#collectionTops.get(c)?.remove(change.dense);
    if (this.popularity.raw(change.dense) > 0) {
      for (const c of change.added) this.#collectionTop(c).touch(change.dense);
    }
  }

  removeProduct(id: string): boolean {
    const change = this.catalog.remove(id);
    if (change === undefined) return false;
    this.content.remove(change.dense);
    for (const c of change.removed) this.#collectionTops.get(c)?.remove(change.dense);
    return true;
  }

  /** The ranked popular members of a collection; undefined when none has a score. */
  collectionTop(collectionId: string): TopList | undefined {
    return this.#collectionTops.get(collectionId);
  }

  /** Whether the shopper has any behaviour the personal strategies can use. */
  hasHistory(keys: readonly ShopperKey[]): boolean {
    return keys.some((key) => (this.affinities.get(key)?.items.size ?? 0) > 0 || (this.recentViews.get(key)?.ids.length ?? 0) > 0);
  }

  /** Adds to `into` the products the shopper bought that the catalog does not mark repurchasable. */
  boughtBy(key: ShopperKey, into: Set<number>): void {
    for (const id of this.affinities.get(key)?.purchased ?? []) {
      if (this.catalog.product(id)?.repurchasable !== true) into.add(id);
    }
  }

  #collectionTop(collectionId: string): TopList {
    let top = this.#collectionTops.get(collectionId);
    if (top === undefined) {
      top = new TopList(this.popularity, this.config.topListSize, this.compareIds);
      this.#collectionTops.set(collectionId, top);
    }
    return top;
  }
}

/** Products of one session that pair with a newly viewed one (the most recent ones). */
const SESSION_VIEW_WINDOW = 20;

/** Items past this many in one basket are not paired (bulk orders say little about affinity). */
const MAX_BASKET_ITEMS = 100;

/** An order when the event names one, else the session's cart. */
function basketKey(event: EngineEvent): string {
  const orderId = event.metadata?.orderId;
  return typeof orderId === 'string' || typeof orderId === 'number' ? 'o:' + orderId : 'c:' + event.sessionId;
}

/** A shopper's keys, the customer first (its history is the richer one). */
export function shopperKeys(customerId: string | undefined, sessionId: string | undefined): ShopperKey[] {
  const keys: ShopperKey[] = [];
  if (customerId) keys.push(customerKey(customerId));
  if (sessionId) keys.push(sessionKey(sessionId));
  return keys;
}
