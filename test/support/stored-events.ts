// What the shop log holds, read back as the server does (for tests that check what was stored).
import type { TrackedEvent } from '../../src/api/event.js';
import type { Databases } from '../../src/store/database.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';

export interface StoredEvent {
  position: number;
  eventId: string;
  event: TrackedEvent;
}

/** Every event stored for the shop (for every shop when none is named), in log order; changes left out. */
export function storedEvents(dbs: Databases, shopId?: string): StoredEvent[] {
  const log = new LmdbShopLog(dbs);
  const shopIds = shopId === undefined ? [...log.heads()].map((h) => h.shopId) : [shopId];
  return shopIds.flatMap((id) => [...log.read(id)].flatMap((r) => (r.event === undefined ? [] : [{ position: r.position, eventId: r.eventId, event: r.event }])));
}
