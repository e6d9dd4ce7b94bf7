// What is stored about each customer, through the index of their events (customer-index.ts): read
// for an export or a rebuild, and erased as one log change.
import type { Databases } from './database.js';
import { customerEvents, type IndexedEvent } from './customer-index.js';
import type { ShopLog } from './shop-log.js';

export class CustomerStore {
  constructor(
    readonly dbs: Databases,
    readonly log: ShopLog,
  ) {}

  /** Up to `limit` of the customer's events after log position `after`, oldest first. */
  page(shopId: string, customerId: string, after: number, limit: number): IndexedEvent[] {
    return customerEvents(this.dbs, shopId, customerId, { after, limit });
  }

  /** The customer's newest `limit` events before log position `before`, oldest first. */
  latest(shopId: string, customerId: string, before: number, limit: number): IndexedEvent[] {
    return customerEvents(this.dbs, shopId, customerId, { before, limit, newestFirst: true }).reverse();
  }

  /**
   * Appends the customer's erasure: in one commit, their events become 'event-erased' entries,
   * their index rows and messageIds go, and a 'customer-erased' change names them and the sessions
   * of those events for the models. Resolves with the erasure's log position and the events removed.
   */
  async erase(shopId: string, customerId: string, at: number): Promise<{ position: number; events: number }> {
    const appended = await this.log.append(shopId, { kind: 'erase-customer', customerId }, at);
    const change = appended!.change;
    return { position: appended!.position, events: change.kind === 'customer-erased' ? (change.events ?? 0) : 0 };
  }
}
