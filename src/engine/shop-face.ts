// The face a shop's models show to callers outside src/engine/ (the application's use cases, the
// log applier, the transports): counts, reads and commands. The models themselves (the catalog's
// mutators, the scores, the shoppers' state, the answer scratch) stay the engine's own; engine
// functions (recommend, the answer's shaping, a customer's model state) take the engine whole.
// test/engine-face.test.ts keeps every file outside src/engine/ off the engine's model fields.
import type { AnswerReads } from './answer-reads.js';
import type { Attribution } from './attribution/attribution.js';
import type { Catalog } from './catalog.js';
import type { EaseFit } from './ease/ease-model.js';
import type { Recency } from './engine-config.js';
import type { CartBlend, EaseBlend } from './ease/ease-blend.js';
import type { PortableEaseFit } from './ease/portable-fit.js';
import type { Diversity } from './filters/diversity.js';
import type { FilterError, FilterExpression } from './filters/filter-syntax.js';
import type { Product } from './product.js';
import type { RuleBook } from './rules/rule-book.js';
import type { TuningReport } from './tuning/tuned-settings.js';

/** What a shop's models hold now. */
export interface ShopCounts {
  products: number;
  /** Events applied since the shop began (restored from a snapshot, then the log after it). */
  events: number;
  /** Shoppers with state in memory: customers and sessions, and each kind. */
  shoppers: number;
  customers: number;
  sessions: number;
  /** Events held for product ids the catalog does not have (yet). */
  pendingEvents: number;
  /** Products in the installed EASE fit (0: none yet). */
  easeProducts: number;
}

/** The catalog as it can be read: by id, by dense id, in order, by collection; never changed through it. */
export type CatalogReader = Pick<Catalog, 'get' | 'denseOf' | 'idOf' | 'product' | 'isAvailable' | 'productCount' | 'size' | 'members' | 'ordered' | 'orderedMembers' | 'collectionIds' | 'compareIds'>;

/** What recommendations earned, as the statistics read it (analytics/). */
export type AttributionResults = Pick<Attribution, 'cells' | 'pins' | 'products' | 'widgets'>;

/** What personalized runs with: the installed fit's size, the tuning that chose its settings, the blend in force; and a cart's blend. */
export interface ModelPanelInputs {
  fitProducts: number;
  tuning: TuningReport | undefined;
  blend: Readonly<EaseBlend>;
  cartBlend: Readonly<CartBlend>;
}

export interface ShopFace {
  counts(): ShopCounts;
  /** A product by its id (bare or gid, as the catalog was given it); undefined when not in the catalog. */
  product(id: string): Product | undefined;
  readonly catalogReader: CatalogReader;
  modelPanel(): ModelPanelInputs;
  readonly results: AttributionResults;
  /** The latest edge of a rule's validity window at or before `now` (an answer is not computed before it), and the next one after. */
  lastRuleEdge(now: number): number;
  nextRuleEdge(now: number): number;
  /** Whether a rule matches on placements (answers are then cached per placement). */
  readonly rulesMatchPlacements: boolean;
  /** Whether `expression` compiles against the shop's catalog attributes (a rule's filters are checked so before it is stored); the error when not. */
  checkFilter(expression: FilterExpression): FilterError | undefined;
  /** Whether a diversity cap names an attribute the catalog can group by; the error when not. */
  checkDiversity(diversity: Diversity): FilterError | undefined;
  /** A copy of the rule book (a preview applies a rule not stored). */
  ruleBookCopy(): RuleBook;
  /** What the last answer read: the answer cache keys its validity on it. */
  lastAnswerReads(): AnswerReads;
  /** Whether the customer's state is in memory (an evicted one is refilled from their events first). */
  holdsCustomer(customerId: string): boolean;
  /** Whether the engine holds state for the session. */
  holdsSession(sessionId: string): boolean;
  readonly recency: Recency;
  readonly timePriors: boolean;

  /** Whether the content lists (similar) are exact, and the catalog changes they have seen (the warmer refreshes them when the catalog is quiet). */
  contentState(): { exact: boolean; changes: number };

  /** Commands: the merchant's widget ids (attribution names them), an order cancelled, an EASE fit from the log (or to put in it). */
  registerWidgets(widgetIds: readonly string[]): void;
  cancelOrder(orderId: string): void;
  installPortableFit(fit: PortableEaseFit): void;
  portableFit(fit: EaseFit): PortableEaseFit;
}
