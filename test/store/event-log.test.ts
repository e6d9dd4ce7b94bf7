import fc from 'fast-check';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { eventsStoredById, openDatabases } from '../../src/store/database.js';
import { LmdbEventLog } from '../../src/store/event-log.js';
import { appendByIds } from '../support/older-event-layouts.js';
import { tempDataDir } from '../support/service.js';

const dir = tempDataDir();
mkdirSync(path.join(dir, 'db'), { recursive: true });
const dbs = openDatabases(path.join(dir, 'db'));
const log = new LmdbEventLog(dbs);

afterAll(async () => {
  await dbs.root.close();
  rmSync(dir, { recursive: true, force: true });
});

function view(eventId: string): TrackedEvent {
  return { type: 'view', productId: eventId, sessionId: 's1', timestamp: 0 };
}

let shops = 0;

describe('LmdbEventLog', () => {
  test('When writers append batches whose ids interleave in any way, some stored by id as older versions did, then readShop gives every event once, in commit order, from and to any position', async () => {
    // Each batch: increasing ids from one writer's own range (two writers whose clocks differ),
    // held by its log entry or (byIds: an older version's layout) stored by id beside it.
    const batches = fc.array(
      fc.record({ writer: fc.constantFrom('a', 'b'), size: fc.integer({ min: 1, max: 4 }), skip: fc.integer({ min: 0, max: 3 }), byIds: fc.boolean() }),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(batches, fc.nat(), fc.nat(), async (plan, a, b) => {
        const shopId = `shop-${shops++}`;
        const nextId = { a: 0, b: 0 };
        const committed: string[] = [];
        for (const { writer, size, skip, byIds } of plan) {
          nextId[writer] += skip;
          const ids = Array.from({ length: size }, () => `evt_${writer === 'a' ? 5 : 1}${String(nextId[writer]++).padStart(4, '0')}`);
          const entries = ids.map((eventId) => ({ eventId, event: view(eventId) }));
          expect(await (byIds ? appendByIds(dbs, shopId, entries) : log.append(shopId, entries, 0))).toBe(committed.length + 1);
          committed.push(...ids);
        }
        const [after, through] = [a % (committed.length + 1), b % (committed.length + 1)].sort((x, y) => x - y) as [number, number];

        const read = [...log.readShop(shopId, after, through)];

        expect(read.map(({ position }) => position)).toEqual(Array.from({ length: through - after }, (_, i) => after + i + 1));
        expect(read.map(({ eventId }) => eventId)).toEqual(committed.slice(after, through));
        expect(read.map(({ event }) => event.productId)).toEqual(committed.slice(after, through));
        expect([...log.readShop(shopId)].map(({ eventId }) => eventId)).toEqual(committed);
      }),
      { numRuns: 60 },
    );
  });

  test('When a batch is appended, then its log entry holds the events (none is stored by id, no field name in the entry) and they read back whole, metadata included', async () => {
    const shopId = `shop-${shops++}`;
    const byIdBefore = eventsStoredById(dbs);
    const events: TrackedEvent[] = [
      { type: 'purchase', productId: 'p1', sessionId: 's1', customerId: 'c1', metadata: { price: 12.5, coupon: 'X' }, timestamp: 1_763_900_000_000 },
      { type: 'click', productId: 'p2', sessionId: 's1', widgetId: 'w', recId: 'r', messageId: 'm', timestamp: 1_763_900_000_001 },
    ];

    await log.append(shopId, events.map((event, i) => ({ eventId: `evt_${i}`, event })), 1000); // received late: its messageId outlives the dedup prune below

    expect(eventsStoredById(dbs)).toBe(byIdBefore);
    expect(dbs.log.get([shopId, 1])).toEqual({ runs: ['evt_0', 1, 'evt_1', 1], events });
    // Field names are stored once per database (shared structures), not in each entry; metadata's are the shopper's own.
    const record = Buffer.from(dbs.log.getBinary([shopId, 1])!);
    expect(['runs', 'productId', 'sessionId', 'timestamp'].filter((name) => record.includes(name))).toEqual([]);
    expect(record.includes('coupon')).toBe(true);
    expect([...log.readShop(shopId)].map(({ event }) => event)).toEqual(events);
    expect(dbs.logHeldEvents.get(shopId)).toBe(2);
  });
});

describe('LmdbEventLog dedup index', () => {
  test('When the index is pruned, then exactly the entries older than the cutoff go, a bounded batch per commit, and their messageIds count as new again', async () => {
    // 95 messageIds over two shops, every third one fresh (received at 1000), the others stale (at 10).
    for (let i = 0; i < 95; i++) {
      const shopId = i % 2 ? 'shop-b' : 'shop-a';
      const event = { type: 'view' as const, productId: 'p', sessionId: 's', messageId: `m${i}`, timestamp: 0 };
      await log.append(shopId, [{ eventId: `evt_${String(i).padStart(3, '0')}`, event }], i % 3 === 0 ? 1000 : 10);
    }
    let commits = 0;
    const transaction = dbs.root.transaction.bind(dbs.root);
    dbs.root.transaction = ((write: () => unknown) => (commits++, transaction(write))) as typeof dbs.root.transaction;

    expect(await log.pruneDedup(500, 10)).toBe(63);
    expect(commits).toBeGreaterThanOrEqual(7); // 63 stale keys, at most 10 scanned per commit
    for (let i = 0; i < 95; i++) {
      const found = log.findByMessageId(i % 2 ? 'shop-b' : 'shop-a', `m${i}`, 0);
      expect(found).toBe(i % 3 === 0 ? `evt_${String(i).padStart(3, '0')}` : undefined);
    }
    expect(await log.pruneDedup(500, 10)).toBe(0);
    dbs.root.transaction = transaction;
  });
});
