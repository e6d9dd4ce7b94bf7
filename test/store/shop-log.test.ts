import fc from 'fast-check';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { checkLogLayout, eventsStoredById, openDatabases } from '../../src/store/database.js';
import type { ShopChange } from '../../src/store/log-entry.js';
import type { ShopCommand } from '../../src/store/shop-command.js';
import { LmdbShopLog, type LogRecord } from '../../src/store/shop-log.js';
import { product } from '../engine/fixtures.js';
import { tempDataDir } from '../support/service.js';

const dir = tempDataDir();
mkdirSync(path.join(dir, 'db'), { recursive: true });
const dbs = openDatabases(path.join(dir, 'db'));
const log = new LmdbShopLog(dbs);

afterAll(async () => {
  await dbs.root.close();
  rmSync(dir, { recursive: true, force: true });
});

function view(eventId: string, messageId?: string): TrackedEvent {
  return { type: 'view', productId: eventId, sessionId: 's1', timestamp: 0, ...(messageId === undefined ? {} : { messageId }) };
}

let shops = 0;

/** What the log should read back: one plain list of positions, as a reference. */
type Expected = { eventId: string } | { change: ShopChange };

describe('LmdbShopLog', () => {
  test('When writers append batches of events and changes in any mix, then read gives every entry once, in commit order, from and to any position', async () => {
    // Each step: a batch of events from one of two writers (ids from its own range: their clocks
    // differ, so ids do not follow positions), or one catalog change.
    const steps = fc.array(
      fc.oneof(
        fc.record({ writer: fc.constantFrom('a', 'b'), size: fc.integer({ min: 1, max: 4 }), skip: fc.integer({ min: 0, max: 3 }) }),
        fc.record({ productId: fc.constantFrom('p1', 'p2', 'p3'), remove: fc.boolean() }),
      ),
      { minLength: 1, maxLength: 14 },
    );
    await fc.assert(
      fc.asyncProperty(steps, fc.nat(), fc.nat(), async (plan, a, b) => {
        const shopId = `shop-${shops++}`;
        const nextId = { a: 0, b: 0 };
        const expected: Expected[] = [];
        const catalog = new Set<string>();
        for (const step of plan) {
          if ('writer' in step) {
            nextId[step.writer] += step.skip;
            const ids = Array.from({ length: step.size }, () => `evt_${step.writer === 'a' ? 5 : 1}${String(nextId[step.writer]++).padStart(4, '0')}`);
            const { first } = await log.appendEvents(shopId, ids.map((eventId) => ({ eventId, event: view(eventId) })), 0, 0);
            expect(first).toBe(expected.length + 1);
            expected.push(...ids.map((eventId) => ({ eventId })));
          } else {
            // A removal of a product the catalog lacks changes nothing and appends nothing.
            const command: ShopCommand = step.remove ? { kind: 'remove-product', productId: step.productId } : { kind: 'put-products', products: [product(step.productId)] };
            const change: ShopChange | undefined = step.remove
              ? catalog.delete(step.productId) ? { kind: 'product-removed', productId: step.productId } : undefined
              : (catalog.add(step.productId), { kind: 'products', products: [product(step.productId)] });
            const done = await log.append(shopId, command, 0);
            if (change === undefined) {
              expect(done).toBeUndefined();
              continue;
            }
            expect(done!.position).toBe(expected.length + 1);
            expected.push({ change });
          }
        }
        const [after, through] = [a % (expected.length + 1), b % (expected.length + 1)].sort((x, y) => x - y) as [number, number];

        const read = [...log.read(shopId, after, through)];

        expect(read.map(({ position }) => position)).toEqual(Array.from({ length: through - after }, (_, i) => after + i + 1));
        expect(read.map(shape)).toEqual(expected.slice(after, through));
        expect([...log.read(shopId)].map(shape)).toEqual(expected);
        expect(log.head(shopId)).toBe(expected.length);
      }),
      { numRuns: 60 },
    );
  });

  test('When a command appends, then the tables its change writes are written in the same commit, and a command that changes nothing appends nothing', async () => {
    const shopId = `shop-${shops++}`;
    await log.append(shopId, { kind: 'put-products', products: [product('p1'), product('p2')] }, 5);
    expect(dbs.products.get([shopId, 'p2'])?.id).toBe('p2');
    await log.append(shopId, { kind: 'remove-product', productId: 'p1' }, 6);
    expect(dbs.products.get([shopId, 'p1'])).toBeUndefined();
    expect(await log.append(shopId, { kind: 'remove-product', productId: 'p1' }, 7)).toBeUndefined();
    expect(log.head(shopId)).toBe(2);
    expect(dbs.log.get([shopId, 2])).toEqual({ change: { kind: 'product-removed', productId: 'p1' }, at: 6 });
  });

  test('When one messageId comes twice in a batch, in concurrent appends and again later, then it is stored once and every repeat names the first eventId', async () => {
    const shopId = `shop-${shops++}`;
    const [x, y] = await Promise.all([
      log.appendEvents(shopId, [{ eventId: 'evt_1', event: view('p', 'm1') }, { eventId: 'evt_2', event: view('p', 'm1') }], 100, 0),
      log.appendEvents(shopId, [{ eventId: 'evt_3', event: view('p', 'm1') }, { eventId: 'evt_4', event: view('q', 'm2') }], 100, 0),
    ]);
    const later = await log.appendEvents(shopId, [{ eventId: 'evt_5', event: view('p', 'm2') }], 200, 0);
    const expired = await log.appendEvents(shopId, [{ eventId: 'evt_6', event: view('p', 'm1') }], 300, 150); // m1's entry is older than 150

    expect(x!.duplicateOf).toEqual([undefined, 'evt_1']);
    expect(y!.duplicateOf).toEqual(['evt_1', undefined]);
    expect(later.duplicateOf).toEqual(['evt_4']);
    expect(later.first).toBe(log.head(shopId) - 1); // nothing stored: the head before `expired`
    expect(expired.duplicateOf).toEqual([undefined]);
    expect([...log.read(shopId)].map(shape)).toEqual([{ eventId: 'evt_1' }, { eventId: 'evt_4' }, { eventId: 'evt_6' }]);
  });

  test('When appends commit, then the committed listeners hear each new head, and nothing for a batch of repeats only', async () => {
    const shopId = `shop-${shops++}`;
    const other = new LmdbShopLog(dbs);
    const heard: [string, number][] = [];
    other.onCommitted((id, head) => heard.push([id, head]));
    await other.appendEvents(shopId, [{ eventId: 'evt_a', event: view('p', 'ma') }, { eventId: 'evt_b', event: view('q') }], 100, 0);
    await other.appendEvents(shopId, [{ eventId: 'evt_c', event: view('p', 'ma') }], 100, 0); // a repeat only
    await other.append(shopId, { kind: 'put-products', products: [product('p')] }, 100);
    await other.append(shopId, { kind: 'revoke-key', hash: 'no-such-key' }, 100); // changes nothing
    expect(heard).toEqual([[shopId, 2], [shopId, 3]]);
  });

  test('When a batch is appended, then its log entry holds the events (no field name in the entry) and they read back whole, metadata included', async () => {
    const shopId = `shop-${shops++}`;
    const events: TrackedEvent[] = [
      { type: 'purchase', productId: 'p1', sessionId: 's1', customerId: 'c1', metadata: { price: 12.5, coupon: 'X' }, timestamp: 1_763_900_000_000 },
      { type: 'click', productId: 'p2', sessionId: 's1', widgetId: 'w', recId: 'r', messageId: 'm', timestamp: 1_763_900_000_001 },
    ];

    await log.appendEvents(shopId, events.map((event, i) => ({ eventId: `evt_${i}`, event })), 1000, 0);

    expect(eventsStoredById(dbs)).toBe(0);
    expect(dbs.log.get([shopId, 1])).toEqual({ runs: ['evt_0', 1, 'evt_1', 1], events });
    // Field names are stored once per database (shared structures), not in each entry; metadata's are the shopper's own.
    const record = Buffer.from(dbs.log.getBinary([shopId, 1])!);
    expect(['runs', 'productId', 'sessionId', 'timestamp'].filter((name) => record.includes(name))).toEqual([]);
    expect(record.includes('coupon')).toBe(true);
    expect([...log.read(shopId)].map(({ event }) => event)).toEqual(events);
  });

  test('When a data dir holds events stored by id (a development layout), then it is refused with a message saying so', async () => {
    const other = tempDataDir();
    mkdirSync(path.join(other, 'db'), { recursive: true });
    const old = openDatabases(path.join(other, 'db'));
    try {
      expect(() => checkLogLayout(old)).not.toThrow();
      await old.events.put(['shop', 'evt_1'], view('p'));
      expect(() => checkLogLayout(old)).toThrow(/1 events in the layout of a development version/);
    } finally {
      await old.root.close();
      rmSync(other, { recursive: true, force: true });
    }
  });
});

function shape(record: LogRecord): Expected {
  return record.event !== undefined ? { eventId: record.eventId } : { change: record.change };
}

describe('LmdbShopLog: platform order lines', () => {
  const DAY = 86_400_000;
  const TTL = 7 * DAY;
  const purchase = (messageId: string): TrackedEvent => ({ type: 'purchase', productId: 'p', sessionId: 's', timestamp: 0, messageId });

  test('When a platform order line comes again after the 7-day window, then it is still a repeat until the retention, and pruned only after', async () => {
    const shopId = `platform-${shops++}`;
    const t0 = Date.UTC(2026, 0, 1);
    const ids = ['shopify:100:1', 'woocommerce:7:9', 'order-7-line-9'];
    await log.appendEvents(shopId, ids.map((m, i) => ({ eventId: `evt_a${i}`, event: purchase(m) })), t0, t0 - TTL, 'secret');
    const later = t0 + 30 * DAY;
    const again = await log.appendEvents(shopId, ids.map((m, i) => ({ eventId: `evt_b${i}`, event: purchase(m) })), later, later - TTL, 'secret');
    // The platforms' lines are repeats; the merchant's own id of a month ago is not (its window passed).
    expect(again.duplicateOf).toEqual(['evt_a0', 'evt_a1', undefined]);
    // From a public key the same text is no platform's: its own namespace, the usual window.
    const publicOne = await log.appendEvents(shopId, [{ eventId: 'evt_c0', event: purchase('shopify:100:1') }], later, later - TTL, 'public');
    expect(publicOne.duplicateOf).toEqual([undefined]);
    await log.pruneDedup(later - TTL);
    expect(dbs.dedup.get([shopId, 's:shopify:100:1'])).toBeDefined();
    await log.pruneDedup(t0 + 400 * DAY + 1);
    expect(dbs.dedup.get([shopId, 's:shopify:100:1'])).toBeUndefined();
  });
});
