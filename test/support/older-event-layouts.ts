// How older versions stored events, for tests that read or migrate their data dirs.
import type { TrackedEvent } from '../../src/api/event.js';
import type { Databases } from '../../src/store/database.js';
import { commitDurably } from '../../src/store/durable-commit.js';
import { toLogEntry } from '../../src/store/log-entry.js';

/** Events as a build before log positions stored them: under [shopId, eventId] alone. */
export async function storeWithoutPositions(dbs: Databases, shopId: string, events: readonly { eventId: string; event: TrackedEvent }[]): Promise<void> {
  await commitDurably(dbs, () => {
    for (const { eventId, event } of events) dbs.events.put([shopId, eventId], event);
  });
}

/**
 * An append as a build before events moved into the log stored it: each event under [shopId,
 * eventId], and a log entry of the ids only; resolves with the first position.
 */
export function appendByIds(dbs: Databases, shopId: string, events: readonly { eventId: string; event: TrackedEvent }[]): Promise<number> {
  return commitDurably(dbs, () => {
    const first = (dbs.logHeads.get(shopId) ?? 0) + 1;
    for (const { eventId, event } of events) dbs.events.put([shopId, eventId], event);
    dbs.log.put([shopId, first], toLogEntry(events.map(({ eventId }) => eventId)));
    dbs.logHeads.put(shopId, first + events.length - 1);
    return first;
  });
}
