// All in-memory model state of one shop and the one place events and catalog changes enter it.
// Pure and synchronous: time comes from the event, never from a clock.
// Memory is bounded whatever the number of events: products × neighbours kept per model, one
// table of at most maxCustomers customers and maxSessions sessions (each pool dropping its least
// recently active first, so sessions never evict customers) holding their affinities, recent views, pairing windows, tallies and dismissals, and at most
// maxPendingEvents events naming ids the catalog never had. Only catalog products get dense ids.
import { Attribution, type AttributionSnapshot } from './attribution/attribution.js';
import type { EngineConfig, Recency } from './engine-config.js';
import { Catalog } from './catalog.js';
import { compileFilter } from './filters/compiled-filter.js';
import { checkDiversity, type Diversity } from './filters/diversity.js';
import type { FilterError, FilterExpression } from './filters/filter-syntax.js';
import { AnswerReads } from './answer-reads.js';
import { fromPortable, toPortable, type PortableEaseFit } from './ease/portable-fit.js';
import type { AttributionResults, CatalogReader, ModelPanelInputs, ShopCounts, ShopFace } from './shop-face.js';
import { ChangeClock, Stamps } from './change-stamps.js';
import { CoOccurrence, type CoOccurrenceSnapshot } from './co-occurrence.js';
import { ContentIndex } from './content-index.js';
import { AttributeIndex } from './filters/attribute-index.js';
import { FilterCache } from './filters/filter-cache.js';
import { RuleBook } from './rules/rule-book.js';
import type { Rule } from './rules/rule.js';
import { STRATEGIES } from './strategy.js';
import { DecayedScores, type DecayedScoresSnapshot } from './decayed-scores.js';
import { DenseSet } from './dense-set.js';
import { ErasedKeys } from './erased-keys.js';
import { EaseModel, type EaseFit, type EaseSnapshot } from './ease/ease-model.js';
import { Dismissals, type DismissalsSnapshot } from './dismissals.js';
import { orderIdOf, type EngineEvent } from './event.js';
import { GroupTable } from './group-table.js';
import { LruSlots, type LruSlotsSnapshot } from './lru-slots.js';
import { CART_SALE, SalesMomentum, type SalesSnapshot } from './momentum.js';
import { PendingEvents, type PendingEventsSnapshot } from './pending-events.js';
import type { Product } from './product.js';
import { RecentViews, type RecentViewsSnapshot } from './recent-views.js';
import { ScoreBoard } from './score-board.js';
import { ShopperAffinities, type AffinitySnapshot } from './shopper-affinity.js';
import { ShopperTally, type ShopperTallySnapshot } from './shopper-tally.js';
import { CUSTOMER_SPACE, SESSION_SPACE, SHOPPER_PREFIXES } from './shopper-keys.js';
import { TopK } from './top-k.js';
import { TopList } from './top-list.js';

/**
 * Everything events built, as plain data: restoring it and then upserting the catalog gives an
 * engine that answers exactly as the one it was taken from. `config` must match the engine's.
 * Its byte arrays and lists are views of the live models (no copy of hundreds of MB on the event
 * loop): copy it before the models change again (SnapshotStore.copy, with the shop held).
 */
export interface EngineSnapshot {
  /**
   * 13; a snapshot of version 12 (a tally of one window per product) restores with an empty tally,
   * and one of version 11 (no sales, tally or recency) still restores (ShopEngine.restore).
   */
  version: 11 | 12 | 13;
  /**
   * JSON of the engine config it was taken with: a snapshot of another config is not used, but for
   * the shopper table's capacities (see sameModels).
   */
  config: string;
  /** Every id with a dense id, by dense id: catalog products, present and removed. */
  ids: readonly string[];
  eventCount: number;
  /** The change clock: stamps after a restore continue from it. */
  changes: number;
  trending: DecayedScoresSnapshot;
  popularity: DecayedScoresSnapshot;
  shoppers: LruSlotsSnapshot;
  basketSlots: LruSlotsSnapshot;
  recentViews: RecentViewsSnapshot;
  dismissals: DismissalsSnapshot;
  affinities: AffinitySnapshot;
  baskets: CoOccurrenceSnapshot;
  shopperItems: CoOccurrenceSnapshot;
  coViews: CoOccurrenceSnapshot;
  pending: PendingEventsSnapshot;
  /** The installed EASE fit, so a restart does not wait for a refit; null when none. */
  ease: EaseSnapshot | null;
  /** What recommendations earned (engine/attribution/attribution.ts). */
  attribution: AttributionSnapshot;
  /** Sales behind momentum (version 12 on). */
  sales?: SalesSnapshot;
  /** Each shopper's tally of what it counted per product (version 13 on; 12's is not read). */
  tally?: ShopperTallySnapshot;
  /** The shop's recency setting (version 12 on; before: 'auto'). */
  recency?: Recency;
}

/** Scratch space of one answer, reused by every answer of the shop (answers are computed one at a time). */
export interface AnswerScratch {
  readonly board: ScoreBoard;
  /** The answer's candidates. */
  readonly top: TopK;
  /** Personalized's strongest affinities. */
  readonly seeds: TopK;
  /** EASE scores (personalized's, a cart's), beside the real-time ones on `board`. */
  readonly easeBoard: ScoreBoard;
  /** A cart's content scores, beside its pair (`board`) and EASE ones. */
  readonly contentBoard: ScoreBoard;
  /** Bought-together's scores of one basket row (scoreRow): at least `size` long, reused (so valid until the next call). */
  rowScores(size: number): Float64Array;
  /** Personalized's history items already spread through EASE. */
  readonly history: DenseSet;
  /** Ids the answer must not return (context, exclude, dismissed, bought, picked). */
  readonly blocked: DenseSet;
  /** What the answer read, for the answer cache. */
  readonly reads: AnswerReads;
}

/** Store-wide parts in ShopEngine.storeStamps. */
export const CATALOG_PART = 0;
/** The weighted event totals behind trending (every event with a weight changes them). */
export const TRENDING_PART = 1;
/** The installed EASE fit (each swap changes it). */
export const EASE_PART = 2;
/** The shop's settings answers read (its recency). */
export const SETTINGS_PART = 3;

/** Products of one session that pair with a newly viewed one (the most recent ones). */
const SESSION_VIEW_WINDOW = 20;
/** Items past this many in one basket are not paired (bulk orders say little about affinity). */
const MAX_BASKET_ITEMS = 100;

/** Views and clicks: what recent views and co-views record. */
function isViewed(type: EngineEvent['type']): boolean {
  return type === 'view' || type === 'click';
}

export class ShopEngine implements ShopFace {
  readonly catalog = new Catalog();
  /** Counts changes; models stamp what each change touched (the answer cache's versions). */
  readonly clock = new ChangeClock();
  /** Store-wide trending: weighted counts decayed with the trending half-life. */
  readonly trending: DecayedScores;
  readonly trendingTop: TopList;
  /** Longer-memory popularity, ranked within each collection. */
  readonly popularity: DecayedScores;
  /** Purchases and carts, recent against long-run: each product's momentum (engine/momentum.ts). */
  readonly sales: SalesMomentum;
  /** What each shopper counted per product in the current window: caps its share of every shared count. */
  readonly tally: ShopperTally;
  #recency: Recency = 'auto';
  /** Each collection's popular list by collectionPart, and each product's collections as parts (by dense id): what apply() walks. */
  readonly #partTops: (TopList | undefined)[] = [];
  readonly #productParts: (readonly number[] | undefined)[] = [];
  /** Store-wide parts (CATALOG_PART, TRENDING_PART): the last change of each. */
  readonly storeStamps: Stamps;
  /** Per collection (by collectionPart): the last event that changed its members' popularity. */
  readonly collectionStamps: Stamps;
  readonly #collectionParts = new Map<string, number>();
  /** Every shopper with state: customers ('c:' keys) and sessions ('s:' keys), each in a pool of its own. */
  readonly shoppers: LruSlots;
  /** Per shopper slot: the last change of anything the shopper's answers read. */
  readonly shopperStamps: Stamps;
  /** Shopper and basket slots whose key was erased (engine/shopper-erasure.ts): snapshots do not name them. */
  readonly erasedShoppers: ErasedKeys;
  readonly erasedBaskets: ErasedKeys;
  readonly recentViews: RecentViews;
  readonly dismissals: Dismissals;
  readonly affinities: ShopperAffinities;
  /** Open orders and carts. */
  readonly basketSlots: LruSlots;
  /** Products together in an order (metadata.orderId, else a session's purchases) or, weighted apart, in one session's cart. */
  readonly baskets: CoOccurrence;
  /** Products together in one shopper's recent history: the similarity behind personalized. */
  readonly shopperItems: CoOccurrence;
  /** Products viewed or clicked in the same session: the behaviour behind similar. */
  readonly coViews: CoOccurrence;
  readonly content = new ContentIndex();
  /** The catalog's filterable attributes (engine/filters), kept with every upsert and removal. */
  readonly attributes = new AttributeIndex();
  /** Compiled request filters (bounded; recompiled when the catalog's attribute names change). */
  readonly filters = new FilterCache(this.attributes);
  /** The merchant's rules (engine/rules), applied to every answer they match. */
  readonly rules = new RuleBook();
  /** Per strategy (by its index in STRATEGIES): the last rule change that can match its answers. */
  readonly ruleStamps: Stamps;
  /** Events naming ids the catalog never had, until their product is added (bounded: see PendingEvents). */
  readonly pending: PendingEvents;
  /** The latest batch fit behind personalized (none until one is installed). */
  readonly ease = new EaseModel();
  /** Impressions, clicks and conversions per recommendation key and day (pure, like the models). */
  readonly attribution: Attribution;
  readonly scratch: AnswerScratch;
  #eventCount = 0;

  constructor(readonly config: EngineConfig) {
    this.trending = new DecayedScores(config.trendingHalfLifeMs);
    this.trendingTop = new TopList(this.trending, config.topListSize, this.compareIds);
    this.popularity = new DecayedScores(config.popularityHalfLifeMs);
    this.sales = new SalesMomentum(config.popularityHalfLifeMs);
    this.storeStamps = new Stamps(this.clock);
    this.collectionStamps = new Stamps(this.clock);
    this.ruleStamps = new Stamps(this.clock);
    this.shoppers = new LruSlots(shopperCapacities(config), SHOPPER_PREFIXES);
    this.shopperStamps = new Stamps(this.clock);
    this.erasedShoppers = new ErasedKeys(this.shoppers);
    this.recentViews = new RecentViews(this.shoppers, config.recentViewsPerShopper);
    this.dismissals = new Dismissals(this.shoppers, config.dismissTtlMs);
    this.affinities = new ShopperAffinities(this.shoppers, config.affinityHalfLifeMs, config.historyPerShopper, config.purchasesPerShopper);
    this.tally = new ShopperTally(this.shoppers, tallyCap(config));
    this.basketSlots = new LruSlots(config.maxBaskets, BASKET_PREFIXES);
    this.erasedBaskets = new ErasedKeys(this.basketSlots);
    this.baskets = new CoOccurrence(this.clock, new GroupTable(this.basketSlots, MAX_BASKET_ITEMS), config.maxNeighbors, false, config.pairHalfLifeMs);
    this.shopperItems = new CoOccurrence(this.clock, new GroupTable(this.shoppers, config.pairingWindow), config.shopperNeighbors, true);
    this.coViews = new CoOccurrence(this.clock, new GroupTable(this.shoppers, SESSION_VIEW_WINDOW), config.coViewNeighbors, true);
    this.pending = new PendingEvents(config.maxPendingEvents, config.pendingPerProduct);
    this.attribution = new Attribution(config.attributionWindowMs);
    let rowScores = new Float64Array(2 * config.maxNeighbors);
    this.scratch = {
      board: new ScoreBoard(),
      top: new TopK(this.compareIds),
      seeds: new TopK(this.compareIds),
      easeBoard: new ScoreBoard(),
      contentBoard: new ScoreBoard(),
      rowScores: (size) => (rowScores.length >= size ? rowScores : (rowScores = new Float64Array(size))),
      history: new DenseSet(),
      blocked: new DenseSet(),
      reads: new AnswerReads(),
    };
  }

  /** The catalog price of a product as a number (attribution's revenue fallback). */
  readonly #priceOf = (productId: string): number | undefined => {
    const dense = this.catalog.denseOf(productId);
    const price = dense === undefined ? undefined : this.catalog.product(dense)?.price;
    const value = price == null ? NaN : Number(price);
    return Number.isFinite(value) ? value : undefined;
  };

  /** Tie order of every ranking: by product id, whatever order things arrived in. */
  readonly compareIds = (a: number, b: number): number => this.catalog.compareIds(a, b);

  get eventCount(): number {
    return this.#eventCount;
  }

  /** The shop's own recency setting (a shop change in its log). */
  get recency(): Recency {
    return this.#recency;
  }

  /**
   * Whether answers apply the time-based priors: momentum, decayed basket pair weights and the
   * decay of a shopper's history. The one place that decides: false when the shop's recency or
   * every shop's (PAIRWISE_RECENCY) is 'off'; under 'auto', true.
   */
  get timePriors(): boolean {
    return this.config.recency !== 'off' && this.#recency !== 'off';
  }

  /**
   * What a shopper's history is weighed by, per affinity entry: the decayed affinities, or with the
   * time-based priors off their undecayed totals. Read it again after the table may have grown.
   */
  historyWeights(): Float32Array {
    return this.timePriors ? this.affinities.values : this.affinities.totals;
  }

  /** Sets the shop's recency, as one change when it differs: answers computed before are stale. */
  setRecency(recency: Recency): void {
    if (recency === this.#recency) return;
    this.#recency = recency;
    this.clock.tick();
    this.storeStamps.mark(SETTINGS_PART);
  }

  snapshot(): EngineSnapshot {
    const snapshot = this.#snapshotHead();
    for (const take of this.#snapshotSteps(snapshot)) take();
    return snapshot as EngineSnapshot;
  }

  /**
   * The same snapshot, one model per turn of the event loop (`pause` awaited between them): at
   * 100k products one model's snapshot takes up to ~10 ms, all of them ~40 ms. The caller keeps
   * the models unchanged until it resolves (ShopEngines.hold), as it does while it copies them.
   */
  async snapshotInTurns(pause: () => Promise<void>): Promise<EngineSnapshot> {
    const snapshot = this.#snapshotHead();
    for (const take of this.#snapshotSteps(snapshot)) {
      take();
      await pause();
    }
    return snapshot as EngineSnapshot;
  }

  #snapshotHead(): Partial<EngineSnapshot> {
    return {
      version: 13,
      config: JSON.stringify(this.config),
      ids: this.catalog.internedIds(), // live, like every part: the snapshot store copies it
      eventCount: this.#eventCount,
      changes: this.clock.now,
      recency: this.#recency,
    };
  }

  /** One step per model, each filling its field of `into` (in the order a snapshot lists them). */
  #snapshotSteps(into: Partial<EngineSnapshot>): (() => void)[] {
    return [
      () => (into.trending = this.trending.snapshot()),
      () => (into.popularity = this.popularity.snapshot()),
      () => (into.shoppers = this.erasedShoppers.scrub(this.shoppers.snapshot())),
      () => (into.basketSlots = this.erasedBaskets.scrub(this.basketSlots.snapshot())),
      () => (into.recentViews = this.recentViews.snapshot()),
      () => (into.dismissals = this.dismissals.snapshot()),
      () => (into.affinities = this.affinities.snapshot()),
      () => (into.baskets = this.baskets.snapshot()),
      () => (into.shopperItems = this.shopperItems.snapshot()),
      () => (into.coViews = this.coViews.snapshot()),
      () => (into.pending = this.pending.snapshot()),
      () => (into.ease = this.ease.snapshot()),
      () => (into.attribution = this.attribution.snapshot()),
      () => (into.sales = this.sales.snapshot()),
      () => (into.tally = this.tally.snapshot()),
    ];
  }

  /** An engine rebuilt from a snapshot, before its catalog is upserted; undefined if the config differs or its shoppers do not fit. */
  static restore(config: EngineConfig, snapshot: EngineSnapshot): ShopEngine | undefined {
    if ((snapshot.version !== 11 && snapshot.version !== 12 && snapshot.version !== 13) || !sameModels(snapshot.config, config)) return undefined;
    const shoppers = 'keys' in snapshot.shoppers ? snapshot.shoppers.keys.length : snapshot.shoppers.ids.length;
    if (shoppers > config.maxCustomers + config.maxSessions) return undefined;
    const engine = new ShopEngine(config);
    engine.catalog.restoreIds(snapshot.ids);
    engine.content.reserve(snapshot.ids.length);
    engine.#eventCount = snapshot.eventCount;
    engine.clock.restore(snapshot.changes);
    engine.trending.restore(snapshot.trending);
    engine.popularity.restore(snapshot.popularity);
    engine.trendingTop.rebuild(engine.trending.positive());
    engine.shoppers.restore(snapshot.shoppers);
    engine.basketSlots.restore(snapshot.basketSlots);
    engine.erasedShoppers.restored();
    engine.erasedBaskets.restored();
    engine.recentViews.restore(snapshot.recentViews);
    engine.dismissals.restore(snapshot.dismissals);
    engine.affinities.restore(snapshot.affinities);
    engine.baskets.restore(snapshot.baskets);
    engine.shopperItems.restore(snapshot.shopperItems);
    engine.coViews.restore(snapshot.coViews);
    engine.pending.restore(snapshot.pending);
    engine.ease.restore(snapshot.ease);
    engine.attribution.restore(snapshot.attribution);
    if (snapshot.sales !== undefined) engine.sales.restore(snapshot.sales);
    else engine.#salesFromVersion11(snapshot.popularity);
    // Version 12's tally kept a window per product: at most one day's cap counts again after it.
    if (snapshot.version === 13 && snapshot.tally !== undefined) engine.tally.restore(snapshot.tally);
    engine.#recency = snapshot.recency ?? 'auto';
    return engine;
  }

  /**
   * Sales of a snapshot taken before they were counted apart (version 11), from what momentum read
   * then: recent sales are popularity ÷ the purchase weight, and every order ever is taken as made
   * at popularity's landmark (the shop's first event, as a rule). Answers start where they were and
   * follow the shop's sales as they come.
   */
  #salesFromVersion11(popularity: DecayedScoresSnapshot): void {
    if (popularity.landmark === null) return;
    const perPurchase = this.config.eventWeights.purchase || 1;
    const at = popularity.landmark;
    for (const id of this.popularity.positive()) this.sales.recent.add(id, this.popularity.raw(id) / perPurchase, at);
    for (let id = 0; id < this.baskets.groupCounts.length; id++) {
      const orders = this.baskets.groupsOf(id);
      if (orders > 0) {
        this.sales.addLongRun(id, orders, at);
      }
    }
  }

  apply(event: EngineEvent): void {
    this.#eventCount++;
    // Before the catalog check: a conversion counts whether or not its product is listed yet.
    this.attribution.apply(event, this.#priceOf);
    const id = this.catalog.denseOf(event.productId);
    // An id the catalog never had waits for its product, within a bound: a flood of invented ids
    // (anyone with the public key can send one) creates no dense id, shopper or basket.
    if (id === undefined) this.pending.add(event);
    else this.#applyTo(id, event);
  }

  /**
   * An event of a listed product, in steps: the shoppers it touches, then what each kind records in
   * their own state, then what it adds to the counts every shopper shares (bounded per shopper).
   */
  #applyTo(id: number, event: EngineEvent): void {
    this.clock.tick();
    const t = event.timestamp;
    const type = event.type;
    const weight = this.config.eventWeights[type];
    const customer = this.#customerOf(event, weight);
    const session = this.#sessionOf(event, weight, customer);
    if (type === 'dismiss') {
      if (customer >= 0) this.dismissals.record(customer, id, t);
      if (session >= 0) this.dismissals.record(session, id, t);
      return;
    }
    // The customer's history when logged in, else the session's: one shopper, one history. Its
    // tally caps what it adds to every count shared by shoppers (popularity, sales, pairs): past
    // the cap the event is its own history's only.
    const shopper = customer >= 0 ? customer : session;
    const counted = weight > 0 && shopper >= 0 ? this.tally.admit(shopper, id, weight, t) : weight;
    const shared = counted > 0 || weight <= 0;
    if (isViewed(type)) this.#recordView(id, t, customer, session, shared);
    if (shared) this.#recordBasket(id, event);
    if (weight <= 0) return;
    if (shopper >= 0) {
      this.affinities.record(shopper, id, weight, t, type === 'purchase');
      if (shared) this.shopperItems.add(shopper, id, t);
    }
    if (shared) this.#recordDemand(id, type, counted, weight, t);
  }

  /** The customer an event touches (LRU, stamp), once: one it keeps (a dismissal, a view, a weighted event) of a logged-in shopper; else -1. */
  #customerOf(event: EngineEvent, weight: number): number {
    const kept = event.type === 'dismiss' || isViewed(event.type) || weight > 0;
    return kept && event.customerId ? this.touchShopper(CUSTOMER_SPACE, event.customerId) : -1;
  }

  /** The session an event touches: for dismissals and views always, for a weighted event only when no customer holds the history; else -1. */
  #sessionOf(event: EngineEvent, weight: number, customer: number): number {
    const kept = event.type === 'dismiss' || isViewed(event.type) || (weight > 0 && customer < 0);
    return event.sessionId && kept ? this.touchShopper(SESSION_SPACE, event.sessionId) : -1;
  }

  /** A view (or click): the shoppers' recent views, and the session's co-views when it counts for the shared tables. */
  #recordView(id: number, t: number, customer: number, session: number, shared: boolean): void {
    if (customer >= 0) this.recentViews.record(customer, id, t);
    if (session < 0) return;
    this.recentViews.record(session, id, t);
    if (shared) this.coViews.add(session, id, t);
  }

  /** A purchase goes to its order's basket, an add-to-cart to its session's cart (pairs bought together). */
  #recordBasket(id: number, event: EngineEvent): void {
    if (event.type === 'purchase') this.baskets.add(this.#orderSlot(event), id, event.timestamp);
    else if (event.type === 'add_to_cart') this.baskets.add(this.#basket(CART_SPACE, event.sessionId), id, event.timestamp, this.config.cartPairWeight);
  }

  /** What a weighted event adds to the shop's demand: sales momentum, trending, popularity, and the collections' top lists. `counted`: the part of its `weight` the shopper's tally let count. */
  #recordDemand(id: number, type: EngineEvent['type'], counted: number, weight: number, t: number): void {
    if (type === 'purchase') this.sales.record(id, counted / weight, t);
    else if (type === 'add_to_cart') this.sales.record(id, (CART_SALE * counted) / weight, t);
    this.trending.add(id, counted, t);
    this.trendingTop.touch(id);
    this.storeStamps.mark(TRENDING_PART);
    this.popularity.add(id, counted, t);
    const parts = this.#productParts[id];
    if (parts === undefined) return;
    for (let i = 0; i < parts.length; i++) {
      this.#partTops[parts[i]!]!.touch(id);
      this.collectionStamps.mark(parts[i]!);
    }
  }

  /**
   * Adds or updates a product. A product new to the catalog gets the events held for its id applied
   * now, oldest first: a live engine counts them at this point, while a replay (catalog first, then
   * the log) counts them in log order; both count the same events when no more than the pending
   * bound arrived, and order matters only to the bounded windows (pairing, recent views).
   */
  upsertProduct(product: Product): void {
    this.clock.tick();
    this.storeStamps.mark(CATALOG_PART);
    const isNew = this.catalog.denseOf(product.id) === undefined;
    const change = this.catalog.upsert(product);
    this.content.index(change.dense, product);
    this.attributes.index(change.dense, product);
    for (const c of change.removed) this.collectionTop(c)?.remove(change.dense);
    this.#productParts[change.dense] = product.collections.length === 0 ? undefined : product.collections.map((c) => this.#listedPart(c));
    if (this.popularity.raw(change.dense) > 0) {
      for (const c of change.added) this.collectionTop(c)!.touch(change.dense);
    }
    if (isNew) for (const event of this.pending.take(product.id)) this.#applyTo(change.dense, event);
  }

  removeProduct(id: string): boolean {
    const change = this.catalog.remove(id);
    if (change === undefined) return false;
    this.clock.tick();
    this.storeStamps.mark(CATALOG_PART);
    this.content.remove(change.dense);
    this.attributes.remove(change.dense);
    this.#productParts[change.dense] = undefined;
    for (const c of change.removed) this.collectionTop(c)?.remove(change.dense);
    return true;
  }

  /**
   * Installs a finished EASE fit in place of the last one, as one change: answers computed before
   * read the old fit and are stale from now on (EASE_PART), answers after read the new one.
   */
  installEase(fit: EaseFit): void {
    this.ease.swap(fit);
    this.clock.tick();
    this.storeStamps.mark(EASE_PART);
  }

  /**
   * Recomputes every content-neighbour list not computed for the catalog as it is (see
   * ContentIndex.exact), from the next precomputes on; answers made before are stale.
   */
  refreshContent(): void {
    this.content.refreshAll();
    this.clock.tick();
    this.storeStamps.mark(CATALOG_PART);
  }

  /**
   * Adds or replaces a rule (undefined `rule`: removes `id`), as one change: the answers of every
   * strategy the old or the new rule can match are stale from now on, no other.
   */
  setRule(id: string, rule: Rule | undefined): void {
    const previous = rule === undefined ? this.rules.remove(id) : this.rules.put(rule);
    this.clock.tick();
    for (let s = 0; s < STRATEGIES.length; s++) {
      const strategy = STRATEGIES[s]!;
      const touches = (r: Rule | undefined) => r !== undefined && (r.when.strategies === undefined || r.when.strategies.includes(strategy));
      if (touches(previous) || touches(rule)) this.ruleStamps.mark(s);
    }
  }

  /** Computes up to `maxProducts` stale content-neighbour lists ahead of requests; returns how many (0: all fresh). */
  precomputeContent(maxProducts: number): number {
    return this.content.precompute(maxProducts, this.compareIds);
  }

  /** The ranked popular members of a collection; undefined when no product was ever listed in it. */
  collectionTop(collectionId: string): TopList | undefined {
    const part = this.#collectionParts.get(collectionId);
    return part === undefined ? undefined : this.#partTops[part];
  }

  /** The collection's index in collectionStamps (collections are few: one index each, never dropped). */
  collectionPart(collectionId: string): number {
    let part = this.#collectionParts.get(collectionId);
    if (part === undefined) this.#collectionParts.set(collectionId, (part = this.#collectionParts.size));
    return part;
  }

  // The face callers outside the engine use (ShopFace): counts, reads and commands.

  counts(): ShopCounts {
    return {
      products: this.catalog.productCount,
      events: this.#eventCount,
      shoppers: this.erasedShoppers.held(),
      customers: this.erasedShoppers.held(CUSTOMER_SPACE),
      sessions: this.erasedShoppers.held(SESSION_SPACE),
      pendingEvents: this.pending.size,
      easeProducts: this.ease.size,
    };
  }

  product(id: string): Product | undefined {
    return this.catalog.get(id);
  }

  get catalogReader(): CatalogReader {
    return this.catalog;
  }

  modelPanel(): ModelPanelInputs {
    return { fitProducts: this.ease.size, tuning: this.ease.tuning, blend: this.ease.blendFor(this.timePriors), cartBlend: this.ease.cartBlend };
  }

  get results(): AttributionResults {
    return this.attribution;
  }

  lastRuleEdge(now: number): number {
    return this.rules.lastEdge(now);
  }

  nextRuleEdge(now: number): number {
    return this.rules.nextEdge(now);
  }

  get rulesMatchPlacements(): boolean {
    return this.rules.byWidget;
  }

  checkFilter(expression: FilterExpression): FilterError | undefined {
    const compiled = compileFilter(expression, this.attributes);
    return compiled.ok ? undefined : compiled.error;
  }

  checkDiversity(diversity: Diversity): FilterError | undefined {
    return checkDiversity(diversity, this.attributes);
  }

  ruleBookCopy(): RuleBook {
    return this.rules.copy();
  }

  lastAnswerReads(): AnswerReads {
    return this.scratch.reads;
  }

  holdsCustomer(customerId: string): boolean {
    return this.shoppers.slotIn(CUSTOMER_SPACE, customerId) >= 0;
  }

  contentState(): { exact: boolean; changes: number } {
    return { exact: this.content.exact, changes: this.content.changes };
  }

  registerWidgets(widgetIds: readonly string[]): void {
    this.attribution.widgets.register(widgetIds);
  }

  cancelOrder(orderId: string): void {
    this.attribution.cancelOrder(orderId);
  }

  installPortableFit(fit: PortableEaseFit): void {
    this.installEase(fromPortable(this.catalog, fit));
  }

  portableFit(fit: EaseFit): PortableEaseFit {
    return toPortable(this.catalog, fit);
  }

  /** Whether the engine holds state for the session (as a shopper or in attribution's memory). */
  holdsSession(sessionId: string): boolean {
    return this.shoppers.slotIn(SESSION_SPACE, sessionId) >= 0 || this.attribution.shoppers.slotOf(SESSION_SPACE, sessionId) >= 0;
  }

  /** Whether the shopper in `slot` has any behaviour the personal strategies can use. */
  hasHistory(slot: number): boolean {
    return this.affinities.size(slot) > 0 || this.recentViews.size(slot) > 0;
  }

  /** Calls `block` with each product the shopper bought that the catalog does not mark repurchasable. */
  boughtBy(slot: number, block: (id: number) => void): void {
    this.affinities.purchasesOf(slot, (id) => {
      if (!this.catalog.isRepurchasable(id)) block(id);
    });
  }

  /** Calls `block` with each product in the shopper's recent views (none for slot -1). */
  viewedBy(slot: number, block: (id: number) => void): void {
    if (slot < 0) return;
    const start = this.recentViews.start(slot);
    for (let k = 0; k < this.recentViews.size(slot); k++) block(this.recentViews.ids[start + k]!);
  }

  /** The shopper's slot (a customer or session id in its key space), created if new, marked most recently active and changed now. */
  touchShopper(space: number, id: string): number {
    const slot = this.shoppers.touchIn(space, id);
    this.shopperStamps.mark(slot);
    this.erasedShoppers.written(slot);
    return slot;
  }

  /** The open basket a purchase belongs to: the order it names, else its session's purchases. */
  #orderSlot(event: EngineEvent): number {
    const orderId = orderIdOf(event);
    return orderId !== undefined ? this.#basket(ORDER_SPACE, orderId) : this.#basket(SESSION_PURCHASES_SPACE, event.sessionId);
  }

  #basket(space: number, id: string): number {
    const slot = this.basketSlots.touchIn(space, id);
    this.erasedBaskets.written(slot);
    return slot;
  }

  /** The collection's part, its popular list created if new. */
  #listedPart(collectionId: string): number {
    const part = this.collectionPart(collectionId);
    this.#partTops[part] ??= new TopList(this.popularity, this.config.topListSize, this.compareIds);
    return part;
  }
}

/**
 * The weight one shopper adds to a product's shared counts per tally window: one of each kind of
 * event (with the default weights 1 + 2 + 3 + 4 + 6 = 16), so a shopper's full path from a view
 * to a purchase counts whole, and 200 views from one session count less than a view from each of
 * 17 sessions.
 */
export function tallyCap(config: EngineConfig): number {
  let cap = 0;
  for (const weight of Object.values(config.eventWeights)) cap += Math.max(0, weight);
  return cap;
}

/** The shopper table's pools by key space (shopper-keys.ts): customers, then sessions. */
function shopperCapacities(config: EngineConfig): number[] {
  const capacities: number[] = [];
  capacities[CUSTOMER_SPACE] = config.maxCustomers;
  capacities[SESSION_SPACE] = config.maxSessions;
  return capacities;
}

/**
 * Settings a snapshot may differ in: the shopper table's capacities (its keys keep their slots:
 * LruSlots.restore; maxShoppers was their one shared pool) and recency, which only answers read.
 */
const SHOPPER_CAPACITIES: ReadonlySet<string> = new Set(['maxShoppers', 'maxCustomers', 'maxSessions', 'recency']);

/** Whether a snapshot taken with the config `taken` (JSON) holds the models `config` builds. */
function sameModels(taken: string, config: EngineConfig): boolean {
  if (taken === JSON.stringify(config)) return true;
  const withoutCapacities = (key: string, value: unknown) => (SHOPPER_CAPACITIES.has(key) ? undefined : value);
  return JSON.stringify(JSON.parse(taken), withoutCapacities) === JSON.stringify(config, withoutCapacities);
}

/** Key spaces of the basket table: orders by id, a session's purchases without one, a session's cart. */
const ORDER_SPACE = 0;
export const SESSION_PURCHASES_SPACE = 1;
export const CART_SPACE = 2;
const BASKET_PREFIXES: readonly string[] = ['o:', 'p:', 'c:'];
