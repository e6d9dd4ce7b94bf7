// What a strategy producer sees of one request, and the producer signature every strategy implements.
// Each strategy names the parts of the shop's models it reads (its inputs, a Pick of ShopEngine):
// it is handed the engine typed as just those, so the compiler keeps it to them.
import type { PickList } from '../pick-list.js';
import type { ShopEngine } from '../shop-engine.js';

export interface StrategyContext<Inputs = ShopEngine> {
  /** The shop's models, as far as the strategy reads them. */
  readonly engine: Inputs;
  /** Dense id of the context product, when the request's context holds exactly one the engine knows. */
  readonly product?: number;
  /**
   * The context's products the engine knows when there are two or more (a cart), in the request's
   * order (by product id: the same cart always sums in the same order); `product` is then undefined.
   */
  readonly cart?: readonly number[];
  readonly collectionId?: string;
  /** The shopper's slots in engine.shoppers, customer first; -1 for one the engine holds nothing for. */
  readonly shoppers: readonly number[];
  readonly now: number;
}

/** Offers the strategy's candidates, best first, until the pick list is full or it has none left. */
export type Producer<Inputs = ShopEngine> = (context: StrategyContext<Inputs>, pick: PickList) => void;
