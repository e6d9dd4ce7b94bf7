// What the event log holds, read back as the server does (for tests that check what was stored).
import type { Databases } from '../../src/store/database.js';
import { LmdbEventLog, type LoggedEvent } from '../../src/store/event-log.js';

/** Every event stored for the shop (for every shop when none is named), in log order. */
export function storedEvents(dbs: Databases, shopId?: string): LoggedEvent[] {
  const log = new LmdbEventLog(dbs);
  const shopIds = shopId === undefined ? [...log.shopIds()] : [shopId];
  return shopIds.flatMap((id) => [...log.readShop(id)]);
}
