// A customer's data (GDPR Articles 15 and 17): the export of what is stored about them, and their
// erasure, appended to the shop's log and applied before the answer (every other process applies it
// in log order).
import type { CustomerExport } from '../api/responses.js';
import { customerModelState } from '../engine/customer-state.js';
import { notStored } from '../errors.js';
import type { LogApplier } from '../ingest/log-applier.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { CustomerStore } from '../store/customer-store.js';

const iso = (ms: number) => new Date(ms).toISOString();

export class CustomerData {
  constructor(
    readonly store: CustomerStore,
    readonly engines: ShopEngines,
    readonly applier: LogApplier,
  ) {}

  /** A page of the customer's events after log position `after` (oldest first) and what the models hold for them. */
  export(shopId: string, customerId: string, after: number, limit: number): CustomerExport {
    // One more than the page, to know whether another follows.
    const found = this.store.page(shopId, customerId, after, limit + 1);
    const page = found.slice(0, limit);
    const events = page.map(({ position, eventId, event }) => ({ position, eventId, ...event, customerId, timestamp: iso(event.timestamp) }));
    const state = customerModelState(this.engines.get(shopId), customerId);
    return {
      customerId,
      events,
      nextCursor: found.length > limit ? String(page.at(-1)!.position) : null,
      models: { ...state, recentlyViewed: state.recentlyViewed.map(({ productId, viewedAt }) => ({ productId, viewedAt: iso(viewedAt) })) },
    };
  }

  /** Erases the customer; resolves once this process's models no longer hold them, with the erasure's position and the events removed. */
  async erase(shopId: string, customerId: string, now: number): Promise<{ position: number; events: number }> {
    let erased;
    try {
      erased = await this.store.erase(shopId, customerId, now);
    } catch (cause) {
      throw notStored('the erasure', cause);
    }
    await this.applier.applyThrough(shopId, erased.position);
    return erased;
  }
}
