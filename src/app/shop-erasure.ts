// DELETE /api/shop: the shop's every stored row goes in one commit, then this process forgets it;
// every other process learns of it from the commit notice or its poll of the log heads (LogTail:
// a shop whose log went) and forgets it too. Its keys are refused from then on.
import { AppError } from '../errors.js';

export class ShopErasure {
  constructor(
    /** Removes the shop's rows; resolves with how many went. */
    readonly eraseRows: (shopId: string) => Promise<number>,
    /** Forgets the shop in this process: its models, its keys in the key cache. */
    readonly forget: (shopId: string) => void,
  ) {}

  async erase(shopId: string): Promise<void> {
    try {
      await this.eraseRows(shopId);
    } catch (cause) {
      throw new AppError('unavailable', `the shop could not be erased: ${(cause as Error).message}`);
    }
    this.forget(shopId);
  }
}
