// The contract every ShopLog keeps, whatever holds the log (LMDB on one machine, a JetStream stream
// materialized into each node's LMDB past one): one suite, run against each implementation (as
// Gorse runs one storage test suite over every backend). `make` opens a log over a fresh data dir;
// each test takes shop ids of its own, so one log serves the whole suite.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { eventsStoredById, type Databases } from '../../src/store/database.js';
import type { ShopChange } from '../../src/store/log-entry.js';
import type { ShopCommand } from '../../src/store/shop-command.js';
import type { LogRecord, ShopLog } from '../../src/store/shop-log.js';
import { product } from '../engine/fixtures.js';

/** A log under test and the data dir's databases it writes (the local LMDB of a replicated one). */
export interface OpenedShopLog {
  log: ShopLog;
  dbs: Databases;
  close(): Promise<void>;
}

function view(eventId: string, messageId?: string): TrackedEvent {
  return { type: 'view', productId: eventId, sessionId: 's1', timestamp: 0, ...(messageId === undefined ? {} : { messageId }) };
}

/** What the log should read back: one plain list of positions, as a reference. */
type Expected = { eventId: string } | { change: ShopChange };

function shape(record: LogRecord): Expected {
  return record.event !== undefined ? { eventId: record.eventId } : { change: record.change };
}

export function describeShopLog(name: string, make: () => Promise<OpenedShopLog>): void {
  describe(`${name} (the ShopLog contract)`, () => {
    let opened: OpenedShopLog | undefined;
    let shops = 0;
    const nextShop = () => `shop-${shops++}`;
    const the = (): OpenedShopLog => {
      if (opened === undefined) throw new Error('the log opens in beforeAll');
      return opened;
    };

    beforeAll(async () => {
      opened = await make();
    }, 90_000);
    afterAll(async () => {
      await opened?.close();
    });

    test('When writers append batches of events and changes in any mix, then read gives every entry once, in commit order, from and to any position', async () => {
      const { log } = the();
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
          const shopId = nextShop();
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
          expect(log.heads().find((h) => h.shopId === shopId)?.head ?? 0).toBe(expected.length);
        }),
        { numRuns: 60 },
      );
    }, 120_000);

    test('When a command appends, then the tables its change writes are written in the same commit, and a command that changes nothing appends nothing', async () => {
      const { log, dbs } = the();
      const shopId = nextShop();
      await log.append(shopId, { kind: 'put-products', products: [product('p1'), product('p2')] }, 5);
      expect(dbs.products.get([shopId, 'p2'])?.id).toBe('p2');
      await log.append(shopId, { kind: 'remove-product', productId: 'p1' }, 6);
      expect(dbs.products.get([shopId, 'p1'])).toBeUndefined();
      expect(await log.append(shopId, { kind: 'remove-product', productId: 'p1' }, 7)).toBeUndefined();
      expect(log.head(shopId)).toBe(2);
      expect(dbs.log.get([shopId, 2])).toEqual({ change: { kind: 'product-removed', productId: 'p1' }, at: 6 });
    });

    test('When one messageId comes twice in a batch, in concurrent appends and again later, then it is stored once and every repeat names the first eventId', async () => {
      const { log } = the();
      const shopId = nextShop();
      const [x, y] = await Promise.all([
        log.appendEvents(shopId, [{ eventId: 'evt_1', event: view('p', 'm1') }, { eventId: 'evt_2', event: view('p', 'm1') }], 100, 0),
        log.appendEvents(shopId, [{ eventId: 'evt_3', event: view('p', 'm1') }, { eventId: 'evt_4', event: view('q', 'm2') }], 100, 0),
      ]);
      const later = await log.appendEvents(shopId, [{ eventId: 'evt_5', event: view('p', 'm2') }], 200, 0);
      const expired = await log.appendEvents(shopId, [{ eventId: 'evt_6', event: view('p', 'm1') }], 300, 150); // m1's entry is older than 150

      expect(x.duplicateOf).toEqual([undefined, 'evt_1']);
      expect(y.duplicateOf).toEqual(['evt_1', undefined]);
      expect(later.duplicateOf).toEqual(['evt_4']);
      expect(later.first).toBe(log.head(shopId) - 1); // nothing stored: the head before `expired`
      expect(expired.duplicateOf).toEqual([undefined]);
      expect([...log.read(shopId)].map(shape)).toEqual([{ eventId: 'evt_1' }, { eventId: 'evt_4' }, { eventId: 'evt_6' }]);
    });

    test('When a public key and a secret key send the same messageId, then each is stored: the senders dedup apart', async () => {
      const { log } = the();
      const shopId = nextShop();
      const store = await log.appendEvents(shopId, [{ eventId: 'evt_p', event: view('p', 'same') }], 100, 0, 'public');
      const server = await log.appendEvents(shopId, [{ eventId: 'evt_s', event: view('p', 'same') }], 100, 0, 'secret');
      const again = await log.appendEvents(shopId, [{ eventId: 'evt_s2', event: view('p', 'same') }], 100, 0, 'secret');
      expect([store.duplicateOf, server.duplicateOf, again.duplicateOf]).toEqual([[undefined], [undefined], ['evt_s']]);
      expect([...log.read(shopId)].map(shape)).toEqual([{ eventId: 'evt_p' }, { eventId: 'evt_s' }]);
    });

    test('When appends commit, then the committed listeners hear each new head, and nothing for a batch of repeats only or a change of nothing', async () => {
      const { log } = the();
      const shopId = nextShop();
      const heard: number[] = [];
      log.onCommitted((id, head) => {
        if (id === shopId) heard.push(head);
      });
      await log.appendEvents(shopId, [{ eventId: 'evt_a', event: view('p', 'ma') }, { eventId: 'evt_b', event: view('q') }], 100, 0);
      await log.appendEvents(shopId, [{ eventId: 'evt_c', event: view('p', 'ma') }], 100, 0); // a repeat only
      await log.append(shopId, { kind: 'revoke-key', hash: 'no-such-key' }, 100); // changes nothing
      await log.append(shopId, { kind: 'put-products', products: [product('p')] }, 100);
      // A replicated log's node hears its follower's commit, which may come just after the writer's answer.
      await expect.poll(() => heard.length).toBe(2);
      expect(heard).toEqual([2, 3]);
    });

    test('When more EASE fits are published than are kept, then each is a change at its position and only the newest three artifacts are kept', async () => {
      const { log } = the();
      const shopId = nextShop();
      const artifact = { items: ['a', 'b'], k: 1, sizes: new Uint8Array([1, 1]), ids: new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]), weights: new Uint8Array(8) };
      const positions: number[] = [];
      for (let i = 0; i < 5; i++) positions.push(await log.publishEaseFit(shopId, artifact, i, 100));

      expect(positions).toEqual([1, 2, 3, 4, 5]);
      expect([...log.read(shopId)].map(shape)).toEqual([0, 1, 2, 3, 4].map((fittedThrough) => ({ change: { kind: 'ease-fit', fittedThrough } })));
      expect(positions.map((p) => log.easeFit(shopId, p) !== undefined)).toEqual([false, false, true, true, true]);
      // Its bytes come back as LMDB's msgpack reads them (Buffers): compared as plain arrays.
      const fit = log.easeFit(shopId, 5)!;
      expect({ ...fit, sizes: [...fit.sizes], ids: [...fit.ids], weights: [...fit.weights] }).toEqual({ ...artifact, sizes: [1, 1], ids: [1, 0, 0, 0, 0, 0, 0, 0], weights: [0, 0, 0, 0, 0, 0, 0, 0] });
    });

    test('When a shop is erased, then its log and tables are gone, the listeners hear its head is 0, and other shops keep theirs', async () => {
      const { log, dbs } = the();
      const [erased, kept] = [nextShop(), nextShop()];
      const heard: number[] = [];
      log.onCommitted((id, head) => {
        if (id === erased) heard.push(head);
      });
      for (const shopId of [erased, kept]) {
        await log.append(shopId, { kind: 'put-products', products: [product('p1')] }, 5);
        await log.appendEvents(shopId, [{ eventId: 'evt_e', event: view('p1', 'me') }], 100, 0);
      }

      expect(await log.eraseShop(erased)).toBeGreaterThan(0);

      await expect.poll(() => heard.at(-1)).toBe(0);
      expect([...log.read(erased)]).toEqual([]);
      expect(log.head(erased, true)).toBe(0);
      expect(dbs.products.get([erased, 'p1'])).toBeUndefined();
      expect(log.head(kept)).toBe(2);
      expect(dbs.products.get([kept, 'p1'])?.id).toBe('p1');
      // Its messageIds went with it: the same one is new again.
      expect((await log.appendEvents(erased, [{ eventId: 'evt_f', event: view('p1', 'me') }], 100, 0)).duplicateOf).toEqual([undefined]);
    });

    test('When a batch is appended, then its log entry holds the events (no field name in the entry) and they read back whole, metadata included', async () => {
      const { log, dbs } = the();
      const shopId = nextShop();
      const events: TrackedEvent[] = [
        { type: 'purchase', productId: 'p1', sessionId: 's1', customerId: 'c1', metadata: { price: 12.5, coupon: 'X' }, timestamp: 1_763_900_000_000 },
        { type: 'click', productId: 'p2', sessionId: 's1', widgetId: 'w', recId: 'r', messageId: 'm', timestamp: 1_763_900_000_001 },
      ];

      await log.appendEvents(shopId, events.map((event, i) => ({ eventId: `evt_${i}`, event })), 1000, 0);

      expect(eventsStoredById(dbs)).toBe(0);
      expect(dbs.log.get([shopId, 1])).toEqual({ runs: ['evt_0', 1, 'evt_1', 1], events });
      // Field names are stored once per database (shared structures), not in each entry; metadata's are the shopper's own.
      const record = Buffer.from(dbs.log.getBinary([shopId, 1])!);
      expect(['runs', 'productId', 'sessionId', 'timestamp'].filter((field) => record.includes(field))).toEqual([]);
      expect(record.includes('coupon')).toBe(true);
      expect([...log.read(shopId)].map(({ event }) => event)).toEqual(events);
    });
  });
}
