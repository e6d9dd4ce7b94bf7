// Row 8 of the "hard edges" review: events with the largest metadata a public key may send fill the
// disk only by a bounded number of bytes each. Metadata is bounded in bytes as JSON and as stored
// (MessagePack), and what is past the bound is refused per event, the rest of its batch stored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LAST_POSITION } from '../../src/store/database.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';

/** The documented bound on metadata (docs/api.md), in bytes of JSON and of MessagePack alike. */
const BOUND = 1024;
/** What an event's other fields (type, ids of this test, timestamp) and the log entry add to its metadata at most. */
const EVENT_OVERHEAD = 128;

/** `{"pad":"xx…"}` of exactly `bytes` bytes of JSON (and one byte fewer as stored). */
const padded = (bytes: number) => ({ pad: 'x'.repeat(bytes - '{"pad":""}'.length) });

interface BatchBody {
  accepted: number;
  rejected: number;
  results: { index: number; success: boolean; error?: { code: string; pointer: string } }[];
}

describe('metadata bytes', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, [wireProduct('1'), wireProduct('2')]);
  });
  afterAll(() => t.cleanup());

  const post = async (events: unknown[]): Promise<BatchBody> => {
    const res = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events }) });
    expect(res.status).toBe(200);
    return (await res.json()) as BatchBody;
  };

  /** Bytes the shop's log entries take in LMDB (raw values), and the events they hold. */
  function logBytes(): { bytes: number; events: number } {
    let bytes = 0;
    const { log } = t.service.dbs;
    for (const key of log.getKeys({ start: [t.shop.shopId, 0], end: [t.shop.shopId, LAST_POSITION] })) bytes += log.getBinary(key)!.length;
    return { bytes, events: storedEvents(t.service.dbs, t.shop.shopId).length };
  }

  test('When a public key sends metadata past 1 KiB (as JSON, or as stored: fractions), then each such event alone is refused with invalid_event at its metadata, and the others of the batch are stored', async () => {
    const before = storedEvents(t.service.dbs, t.shop.shopId).length;
    const body = await post([
      { type: 'view', productId: '1', sessionId: 'edge', metadata: padded(BOUND) },
      { type: 'view', productId: '1', sessionId: 'edge', metadata: padded(BOUND + 1) },
      { type: 'purchase', productId: '2', sessionId: 'edge', metadata: { prices: Array.from({ length: 250 }, () => 0.5) } },
      { type: 'view', productId: '2', sessionId: 'edge', metadata: padded(3500) },
      { type: 'view', productId: '2', sessionId: 'edge', metadata: { orderId: 'o_1', price: 12.5, quantity: 2 } },
    ]);
    expect(body).toMatchObject({ accepted: 2, rejected: 3 });
    expect(body.results.filter((r) => !r.success).map((r) => [r.index, r.error])).toEqual(
      [1, 2, 3].map((index) => [index, expect.objectContaining({ code: 'invalid_event', pointer: `/events/${index}/metadata` })]),
    );
    expect(storedEvents(t.service.dbs, t.shop.shopId).length).toBe(before + 2);
  });

  test('When 10,000 events carry 4 KiB of metadata each (the old bound), then every one is refused and the log does not grow; at 1 KiB each adds at most 1 KiB plus its fields', async () => {
    const flood = async (metadataBytes: number, tag: string): Promise<BatchBody[]> => {
      const bodies: BatchBody[] = [];
      for (let b = 0; b < 100; b++) {
        bodies.push(await post(Array.from({ length: 100 }, (_, k) => ({ type: 'view', productId: String((k % 2) + 1), sessionId: `${tag}-${b}`, metadata: padded(metadataBytes) }))));
      }
      return bodies;
    };
    const start = logBytes();

    const refused = await flood(4096, 'old-max');
    const afterRefused = logBytes();
    const accepted = await flood(BOUND, 'max');
    const afterAccepted = logBytes();

    expect(refused.every((body) => body.accepted === 0 && body.rejected === 100)).toBe(true);
    expect(refused[0]!.results[0]!.error).toMatchObject({ code: 'invalid_event', pointer: '/events/0/metadata' });
    expect(afterRefused).toEqual(start);
    expect(accepted.every((body) => body.accepted === 100)).toBe(true);
    expect(afterAccepted.events - start.events).toBe(10_000);
    const perEvent = (afterAccepted.bytes - start.bytes) / 10_000;
    expect(perEvent).toBeGreaterThan(BOUND - 16); // the metadata is in there
    expect(perEvent).toBeLessThanOrEqual(BOUND + EVENT_OVERHEAD);
  });
});
