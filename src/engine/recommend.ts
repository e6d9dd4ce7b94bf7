// One recommendation request: choose the strategy (chooseStrategy: the auto strategy), run its backfill
// chain into one pick list, label each item with the strategy that produced it. The answer's shape
// (answer-shaping.ts: the request's filter and diversity) constrains every pick of the chain.
import type { AnswerReads } from './answer-reads.js';
import { UNSHAPED, type AnswerShape, type ShapingRequest } from './answer-shaping.js';
import { PickList } from './pick-list.js';
import { finishAnswer } from './rules/apply-rules.js';
import { planRules, type RulePlan } from './rules/rule-plan.js';
import type { RuleBook } from './rules/rule-book.js';
import type { Product } from './product.js';
import { CATALOG_PART, EASE_PART, type ShopEngine } from './shop-engine.js';
import { CUSTOMER_SPACE, SESSION_SPACE } from './shopper-keys.js';
import type { Producer, StrategyContext } from './strategies/context.js';
import { boughtTogether } from './strategies/bought-together.js';
import { cartTogether } from './strategies/cart-together.js';
import { collectionPopular } from './strategies/collection-popular.js';
import { personalized } from './strategies/personalized.js';
import { recentlyViewed } from './strategies/recently-viewed.js';
import { coViewed, similar } from './strategies/similar.js';
import { trending } from './strategies/trending.js';
import { STRATEGIES, type ModelLevel, type Strategy } from './strategy.js';

export interface RecommendationRequest extends ShapingRequest {
  /** Undefined: choose automatically. */
  strategy?: Strategy;
  productId?: string;
  /**
   * A cart: more context products, bare ids (with productId, one context). The parser gives a cart of
   * two products or more here, sorted and distinct, and a single product as productId.
   */
  productIds?: readonly string[];
  collectionId?: string;
  customerId?: string;
  sessionId?: string;
  limit: number;
  /** Bare product ids never to return. */
  exclude: readonly string[];
  /** The placement asking: rules may match on it. */
  widgetId?: string;
}

export interface RecommendedItem {
  product: Product;
  score: number;
  strategy: Strategy;
  /** The rule that pinned it here (absent: the strategy ranked it). */
  ruleId?: string;
}

export interface Recommendation {
  /** The primary strategy: the one asked for or chosen. */
  strategy: Strategy;
  modelLevel: ModelLevel;
  items: RecommendedItem[];
  /** With a context of two products or more: how many it named, and how many of them the models knew. */
  cart?: CartCoverage;
}

export interface CartCoverage {
  products: number;
  /** Those in the catalog with a basket or co-view partner, or a row in the EASE fit. */
  known: number;
}

/** Each strategy's backfill chain, itself first. */
export const CHAINS: Readonly<Record<Strategy, readonly Strategy[]>> = {
  'bought-together': ['bought-together', 'similar', 'collection-popular', 'trending'],
  similar: ['similar', 'collection-popular', 'trending'],
  'collection-popular': ['collection-popular', 'trending'],
  personalized: ['personalized', 'trending'],
  'recently-viewed': ['recently-viewed', 'personalized', 'trending'],
  trending: ['trending'],
};

/**
 * The strategies with a model behind them. A chain skips a strategy missing here, so its requests
 * are answered (and labelled) by the next strategy that has one.
 */
const PRODUCERS: Partial<Record<Strategy, Producer>> = {
  'bought-together': (context, pick) => (context.cart === undefined ? boughtTogether : cartTogether)(context, pick),
  personalized,
  similar,
  trending,
  'collection-popular': collectionPopular,
  'recently-viewed': recentlyViewed,
};

/**
 * The request's shopper slots in the engine, customer first (-1 for a shopper it holds nothing
 * for); empty ids name no shopper. With `reads`, each shopper, its slot and the slot's state are
 * recorded as read.
 */
function shopperSlots(engine: ShopEngine, request: RecommendationRequest, reads?: AnswerReads): number[] {
  const slots: number[] = [];
  if (request.customerId) slots.push(shopperSlot(engine, CUSTOMER_SPACE, request.customerId, reads));
  if (request.sessionId) slots.push(shopperSlot(engine, SESSION_SPACE, request.sessionId, reads));
  return slots;
}

function shopperSlot(engine: ShopEngine, space: number, id: string, reads: AnswerReads | undefined): number {
  const slot = engine.shoppers.slotIn(space, id);
  if (reads !== undefined) {
    reads.resolved(space, id, slot);
    if (slot >= 0) reads.read(engine.shopperStamps, slot);
  }
  return slot;
}

/**
 * The strategy that answers a request: the one it names; else productId → bought-together,
 * collectionId → collection-popular, a shopper with history → personalized, nothing → trending
 * (docs/api.md).
 */
export function chooseStrategy(engine: ShopEngine, request: RecommendationRequest, shoppers = shopperSlots(engine, request)): Strategy {
  if (request.strategy !== undefined) return request.strategy;
  if (request.productId !== undefined || (request.productIds !== undefined && request.productIds.length > 0)) return 'bought-together';
  if (request.collectionId !== undefined) return 'collection-popular';
  if (shoppers.some((slot) => engine.hasHistory(slot))) return 'personalized';
  return 'trending';
}

/**
 * The answer to one request at `now`, within `shape` (shapeFor(engine, request, …): the caller
 * turns its errors into answers). engine.scratch.reads holds what it read until the next answer:
 * the catalog, the shoppers, and what each strategy of the chain records. `book`: the rules to
 * apply (the shop's; a preview passes a draft copy).
 */
export function recommend(engine: ShopEngine, request: RecommendationRequest, now: number, shape: AnswerShape = UNSHAPED, book: RuleBook = engine.rules): Recommendation {
  engine.scratch.reads.reset();
  engine.scratch.reads.read(engine.storeStamps, CATALOG_PART);
  const shoppers = shopperSlots(engine, request, engine.scratch.reads);
  const strategy = chooseStrategy(engine, request, shoppers);
  const named = contextIds(request);
  const dense: number[] = [];
  for (const id of named) {
    const known = engine.catalog.denseOf(id);
    if (known !== undefined) dense.push(known);
  }
  // One product the engine knows answers as a product does, whatever else the cart named.
  const product = dense.length === 1 ? dense[0] : undefined;
  const cart = dense.length > 1 ? dense : undefined;

  const blocked = engine.scratch.blocked;
  blocked.clear();
  for (const id of dense) blocked.add(id);
  for (const id of request.exclude) {
    const dense = engine.catalog.denseOf(id);
    if (dense !== undefined) blocked.add(dense);
  }
  const block = (id: number) => blocked.add(id);
  for (const slot of shoppers) engine.dismissals.hiddenFor(slot, now, block);
  // A personalized answer never offers what the shopper already bought, nor what they viewed in
  // this session (recently-viewed shows those), backfill included: it is for discovery.
  if (strategy === 'personalized') {
    for (const slot of shoppers) engine.boughtBy(slot, block);
    if (request.sessionId) engine.viewedBy(shoppers[shoppers.length - 1]!, block);
  }

  // The shop's rules: a rule change stales this strategy's answers, and what is in force may change at a window's edge.
  engine.scratch.reads.read(engine.ruleStamps, STRATEGIES.indexOf(strategy));
  let plan: RulePlan | undefined;
  if (book.size > 0) {
    engine.scratch.reads.expiresAt = book.nextEdge(now);
    const context = requestContext(engine, request);
    const contextDense = context.map((p) => engine.catalog.denseOf(p.id)!);
    plan = planRules({ book, index: engine.attributes, catalog: engine.catalog, strategy, request, context, contextDense, now, shape, blocked });
  }

  const context: StrategyContext = { engine, product, cart, collectionId: request.collectionId, shoppers, now };
  const pick = new PickList(plan?.window ?? request.limit, engine.catalog, blocked, plan?.constraints ?? shape.constraints);
  for (const step of CHAINS[strategy]) {
    if (pick.full) break;
    // A cart's bought-together offered its products' content neighbours (its content part): the
    // similar that backfills it adds the co-viewed products, not those neighbours again.
    if (step === 'similar' && strategy === 'bought-together' && cart !== undefined && engine.ease.cartBlend.contentWeight > 0) coViewed(context, pick);
    else PRODUCERS[step]?.(context, pick);
  }

  const finished = { ids: pick.ids, scores: pick.scores, strategies: pick.strategies, ruleIds: [] as (string | undefined)[] };
  if (plan !== undefined) finishAnswer(finished, plan.effects, plan.organic, strategy);
  const items = finished.ids.map((id, i) => {
    const item: RecommendedItem = { product: engine.catalog.product(id)!, score: finished.scores[i]!, strategy: finished.strategies[i]! };
    const ruleId = finished.ruleIds[i];
    if (ruleId !== undefined) item.ruleId = ruleId;
    return item;
  });
  // The level of the best item's model; 0 when even that one had no behavioural signal.
  const modelLevel: ModelLevel = pick.levels[0] ?? 0;
  if (named.length < 2) return { strategy, modelLevel, items };
  return { strategy, modelLevel, items, cart: { products: named.length, known: knownProducts(engine, dense) } };
}

/** The request's context product ids: productId and productIds as one set, sorted (a cart sums in one order whatever order it came in). */
export function contextIds(request: Pick<RecommendationRequest, 'productId' | 'productIds'>): readonly string[] {
  const { productId, productIds } = request;
  if (productIds === undefined || productIds.length === 0) return productId === undefined ? [] : [productId];
  // As the parser gives it (sorted, distinct, no productId beside it): as it is, no copy.
  if (productId === undefined && sortedDistinct(productIds)) return productIds;
  const ids = new Set(productIds);
  if (productId !== undefined) ids.add(productId);
  return [...ids].sort();
}

function sortedDistinct(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) return false;
  return true;
}

/** The request's context products in the catalog (its product, its cart's): what its relative filter terms are relative to (shapeFor). */
export function requestContext(engine: ShopEngine, request: Pick<RecommendationRequest, 'productId' | 'productIds'>): Product[] {
  const products: Product[] = [];
  for (const id of contextIds(request)) {
    const product = engine.catalog.get(id);
    if (product !== undefined) products.push(product);
  }
  return products;
}

/** How many of the cart's products the behavioural models hold anything for (what was read is recorded). */
function knownProducts(engine: ShopEngine, dense: readonly number[]): number {
  const reads = engine.scratch.reads;
  reads.read(engine.storeStamps, EASE_PART);
  let known = 0;
  for (const id of dense) {
    reads.read(engine.baskets.stamps, id);
    reads.read(engine.coViews.stamps, id);
    if (engine.catalog.product(id) !== undefined && (engine.baskets.pairs.size(id) > 0 || engine.coViews.pairs.size(id) > 0 || engine.ease.has(id))) known++;
  }
  return known;
}
