// The customer index and erasure against a plain reference log (test/reference/customer-log.ts):
// whatever batches and changes came in, the index finds each customer's events, and an erasure
// leaves every position in place, the erased events as markers and everyone else's as they were.
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { CustomerStore } from '../../src/store/customer-store.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { ReferenceCustomerLog, type ReferenceRecord } from '../reference/customer-log.js';
import { tempDatabases } from '../support/temp-databases.js';
import { product } from '../engine/fixtures.js';

const { dbs, cleanup } = tempDatabases();
const log = new LmdbShopLog(dbs);
const customers = new CustomerStore(dbs, log);
afterAll(cleanup);

const CUSTOMERS = ['c1', 'c2', 'c3'];
let shops = 0;
let ids = 0;

/** Sessions are shared: a customer's sessions also send events without the customerId (before they sign in), and now and then another customer's. */
const event = (customerId: string | undefined, n: number, session: number): TrackedEvent => ({
  type: 'view',
  productId: `p${n}`,
  sessionId: `s${session}`,
  timestamp: n,
  ...(customerId === undefined ? { messageId: `a${n}` } : { customerId, messageId: `m${n}` }),
});

/** The log as read through the server's read path, in the reference's shape. */
function readBack(shopId: string): ReferenceRecord[] {
  return [...log.read(shopId)].map((r) => (r.event !== undefined ? { position: r.position, event: r.event } : { position: r.position, change: r.change.kind }));
}

describe('customer index', () => {
  test('When batches mixing customers and changes are appended and customers are erased, then the log, the index and the reference agree', async () => {
    const step = fc.oneof(
      fc.record({ batch: fc.array(fc.tuple(fc.option(fc.constantFrom(...CUSTOMERS), { nil: undefined }), fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 6 }) }),
      fc.record({ change: fc.constant(true) }),
      fc.record({ erase: fc.constantFrom(...CUSTOMERS, 'never-seen') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), async (steps, limit) => {
        const shopId = `shop-${shops++}`;
        const reference = new ReferenceCustomerLog();
        for (const s of steps) {
          if ('batch' in s) {
            const events = s.batch.map(([c, session]) => event(c, ids++, session));
            await log.appendEvents(shopId, events.map((e) => ({ eventId: `evt_${String(ids++).padStart(26, '0')}`, event: e })), 0, 0, 'secret');
            reference.append(events);
          } else if ('change' in s) {
            await log.append(shopId, { kind: 'put-products', products: [product('p')] }, 0);
            reference.change('products');
          } else {
            const { events } = await customers.erase(shopId, s.erase, 0);
            expect(events).toBe(reference.erase(s.erase));
          }
        }
        expect(readBack(shopId)).toEqual(reference.records);
        for (const customerId of CUSTOMERS) {
          const expected = reference.eventsOf(customerId);
          const whole = customers.page(shopId, customerId, 0, 1_000).map(({ position, event }) => ({ position, event }));
          expect(whole).toEqual(expected);
          // Paged by the last position of each page, and the newest few before any position.
          const paged: typeof whole = [];
          for (let after = 0, page; (page = customers.page(shopId, customerId, after, limit)).length > 0; after = page.at(-1)!.position) paged.push(...page.map(({ position, event }) => ({ position, event })));
          expect(paged).toEqual(expected);
          const before = reference.records.length + 1;
          expect(customers.latest(shopId, customerId, before, limit).map(({ position }) => position)).toEqual(expected.slice(-limit).map(({ position }) => position));
          // An erased customer's messageIds are free again; everyone else's still name their event.
          for (const { event: e } of expected) expect(dbs.dedup.get([shopId, `s:${e.messageId!}`])).toBeDefined();
        }
        // So are the erased sessions' events', and the index finds every event still stored by its session.
        const stored = reference.records.flatMap((r) => ('event' in r ? [r] : []));
        const storedIds = new Set(stored.map(({ event: e }) => e.messageId));
        for (const { key } of dbs.dedup.getRange({ start: [shopId, ''], end: [shopId, '\uffff'] })) expect(storedIds.has(key[1].slice(2))).toBe(true);
        for (const { position, event: e } of stored) {
          const rows = [...dbs.sessionEntries.getKeys({ start: [shopId, e.sessionId, 0], end: [shopId, e.sessionId, position + 1] })];
          expect(rows.length, `session ${e.sessionId} at ${position}`).toBeGreaterThan(0);
        }
      }),
      { numRuns: 60 },
    );
  });
});
