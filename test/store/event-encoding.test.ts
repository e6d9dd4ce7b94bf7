import fc from 'fast-check';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import { afterAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { openDatabases, shopRange, eventsStoredById } from '../../src/store/database.js';
import { tempDataDir } from '../support/service.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dbPath(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  const db = path.join(dir, 'db');
  mkdirSync(db, { recursive: true });
  return db;
}

const id = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const eventArb: fc.Arbitrary<TrackedEvent> = fc.record(
  {
    type: fc.constantFrom('view', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'impression'),
    productId: id,
    sessionId: id,
    customerId: id,
    widgetId: id,
    recId: id,
    messageId: id,
    metadata: fc.dictionary(fc.stringMatching(/^[a-zA-Z]{1,8}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), { maxKeys: 4 }),
    timestamp: fc.integer({ min: 946_684_800_000, max: 2_000_000_000_000 }),
  },
  { requiredKeys: ['type', 'productId', 'sessionId', 'timestamp'] },
) as fc.Arbitrary<TrackedEvent>;

const STRUCTURES = Symbol.for('structures');

describe('stored events (msgpack records with shared structures)', () => {
  test('When events of any shape are stored, some by an earlier version that wrote every record whole, then each reads back as it was, the shapes mixed in one range', async () => {
    const where = dbPath();
    let shops = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), eventArb), { minLength: 1, maxLength: 20 }), async (plan) => {
        const shopId = `shop-${shops++}`;
        // An earlier version: the same database, records written without shared structures.
        const old = open({ path: where, compression: false });
        const oldEvents = old.openDB<TrackedEvent, [string, string]>({ name: 'events', encoding: 'msgpack' });
        await old.transaction(() => {
          plan.forEach(([early, event], i) => early && oldEvents.put([shopId, `evt_${String(i).padStart(3, '0')}`], event));
        });
        await old.close();
        const dbs = openDatabases(where);
        await dbs.root.transaction(() => {
          plan.forEach(([early, event], i) => !early && dbs.events.put([shopId, `evt_${String(i).padStart(3, '0')}`], event));
        });
        await dbs.root.close();
        // Read back by a fresh opener, as a restart does.
        const again = openDatabases(where);
        const stored = [...again.events.getRange(shopRange(shopId))].map(({ value }) => value);
        await again.root.close();
        expect(stored).toEqual(plan.map(([, event]) => event));
      }),
      { numRuns: 40 },
    );
  });

  test('When a typical event is stored, then its record names no field (the names are stored once, not per event)', async () => {
    const dbs = openDatabases(dbPath());
    const event: TrackedEvent = { type: 'purchase', productId: '100123', sessionId: 's_123456', customerId: 'c_1234', timestamp: 1_763_900_000_000 };
    await dbs.events.put(['shop', 'evt_1'], event);
    await dbs.events.put(['shop', 'evt_2'], event);
    const record = Buffer.from(dbs.events.getBinary(['shop', 'evt_2'])!);
    const count = eventsStoredById(dbs); // the structures' entry is beside the events, not one of them
    await dbs.root.close();
    expect(count).toBe(2);
    expect(record.includes('productId')).toBe(false);
    expect(record.length).toBeLessThan(50); // 101 bytes when every record carries its field names
  });

  test('When events carry metadata of many invented shapes, then only event shapes are shared (shoppers cannot fill the shared slots)', async () => {
    const dbs = openDatabases(dbPath());
    await dbs.root.transaction(() => {
      for (let i = 0; i < 100; i++) {
        // Metadata named like event fields too: still not an event's shape.
        const metadata = i % 2 ? { [`k${i}`]: i, [`q${i}`]: 1 } : { [['customerId', 'recId', 'type', 'widgetId'][i % 4]!]: i, [['messageId', 'metadata', 'sessionId'][i % 3]!]: 1 };
        dbs.events.put(['shop', `evt_${String(i).padStart(3, '0')}`], { type: 'view', productId: 'p', sessionId: 's', metadata, timestamp: 1_763_900_000_000 + i });
      }
    });
    const structures = dbs.events.get(STRUCTURES as unknown as [string, string]) as unknown as string[][];
    const fields = new Set(['type', 'productId', 'sessionId', 'customerId', 'widgetId', 'recId', 'metadata', 'messageId', 'timestamp']);
    const stored = [...dbs.events.getRange(shopRange('shop'))].map(({ value }) => value.metadata);
    await dbs.root.close();
    expect(structures.length).toBeGreaterThan(0);
    for (const keys of structures) for (const key of keys) expect(fields.has(key)).toBe(true);
    expect(stored).toEqual(Array.from({ length: 100 }, (_, i) => (i % 2 ? { [`k${i}`]: i, [`q${i}`]: 1 } : { [['customerId', 'recId', 'type', 'widgetId'][i % 4]!]: i, [['messageId', 'metadata', 'sessionId'][i % 3]!]: 1 })));
    expect(structures).toHaveLength(1); // the events' one shape
  });
});
