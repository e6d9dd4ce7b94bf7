// Read-your-writes by position (after= / Pairwise-After:), and what another process writes into the
// log (here: a writer on the same LMDB environment, as another server process or a CLI import
// would be) reaching this server's models without a write of its own.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatPosition } from '../../src/api/position-token.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { expectProblem } from '../support/problem.js';
import { ANY_POSITION, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

let t: TestService;
let logId: string;

beforeAll(async () => {
  t = await startTestService();
  await putProducts(t, ['1', '2', '3', '4'].map((id) => wireProduct(id)));
  logId = t.service.dbs.meta.get('logId')!;
});

afterAll(() => t.stop());

/** Another process's write: straight into the shared log, nothing applied by this server. */
async function writeAsAnotherProcess(sessionId: string, productId: string): Promise<number> {
  const log = new LmdbShopLog(t.service.dbs);
  const event = { type: 'view' as const, productId, sessionId, timestamp: Date.now() };
  const { first } = await log.appendEvents(t.shop.shopId, [{ eventId: `evt_other_${sessionId}`, event }], Date.now(), 0);
  return first;
}

async function recentlyViewed(sessionId: string, extra = '', init: RequestInit = {}): Promise<{ ids: string[]; stale: boolean | undefined; status: number }> {
  const res = await t.fetch(`/api/recommendations?strategy=recently-viewed&sessionId=${sessionId}&limit=4${extra}`, init);
  const body = (await res.json()) as { products?: { id: string; strategy: string }[]; meta?: { stale?: boolean } };
  return { status: res.status, ids: (body.products ?? []).filter((p) => p.strategy === 'recently-viewed').map((p) => p.id.split('/').pop()!), stale: body.meta?.stale };
}

describe('read-your-writes', () => {
  test('When an event is acknowledged, then its position reads it back (query or header), and the answer is not stale', async () => {
    const res = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '2', sessionId: 'ryw-1' }) });
    const ack = (await res.json()) as { position: string };
    expect(ack.position).toEqual(ANY_POSITION);

    expect(await recentlyViewed('ryw-1', `&after=${ack.position}`)).toEqual({ status: 200, ids: ['2'], stale: undefined });
    expect(await recentlyViewed('ryw-1', '', { headers: { 'pairwise-after': ack.position } })).toEqual({ status: 200, ids: ['2'], stale: undefined });
  });

  test('When another process writes to the log, then this server applies it by itself, and a read after its position waits for it', async () => {
    const position = await writeAsAnotherProcess('ryw-2', '3');

    // The position is in the log: the read waits (bounded) for this server to apply it.
    expect(await recentlyViewed('ryw-2', `&after=${formatPosition(logId, position)}`)).toEqual({ status: 200, ids: ['3'], stale: undefined });

    const later = await writeAsAnotherProcess('ryw-3', '4');
    // Without a position, the poll of the log's heads brings it in within its interval.
    for (let i = 0; i < 50 && t.service.engines.position(t.shop.shopId) < later; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await recentlyViewed('ryw-3')).ids).toEqual(['4']);
  });

  test('When the write cannot be applied within the wait (the shop is held), then the answer comes anyway and says stale', async () => {
    const release = t.service.engines.hold(t.shop.shopId); // as a snapshot copying the models does
    try {
      const position = await writeAsAnotherProcess('ryw-4', '1');
      const started = performance.now();
      const read = await recentlyViewed('ryw-4', `&after=${formatPosition(logId, position)}`);
      expect(read).toEqual({ status: 200, ids: [], stale: true });
      expect(performance.now() - started).toBeGreaterThanOrEqual(200); // it waited (250 ms by default) before answering
    } finally {
      release();
    }
  });

  test('When after is malformed, of another data dir, or past the shop\'s log, then 400 invalid_position', async () => {
    for (const after of ['nope', `${logId}.`, `${logId}.!`, 'zzzzzzzz.1', formatPosition(logId, 10_000_000)]) {
      const res = await t.fetch(`/api/recommendations?strategy=trending&after=${encodeURIComponent(after)}`);
      await expectProblem(res, 400, 'invalid_position');
    }
  });
});

describe('changes another process writes', () => {
  test('When another process (the CLI) adds a signing secret, then tokens it signs prove their customer here within the log poll, not after a cache expiry', async () => {
    // As `pairwise token secret` does: the shop's record changes through the log, from another ShopStore.
    const { ShopStore } = await import('../../src/store/shop-store.js');
    const { mintCustomerToken } = await import('../../src/api/customer-token.js');
    const secret = await new ShopStore(t.service.dbs, new LmdbShopLog(t.service.dbs)).rotateSigningSecret(t.shop.shopId);
    const token = mintCustomerToken(secret, t.shop.shopId, 'cli-customer', Math.floor(Date.now() / 1000) + 600);
    const customerOf = async () => {
      const res = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '1', sessionId: 'cli-s', customerId: 'cli-customer', customerToken: token }) });
      const { eventId } = (await res.json()) as { eventId: string };
      return [...new LmdbShopLog(t.service.dbs).read(t.shop.shopId)].find((r) => r.event !== undefined && r.eventId === eventId)?.event?.customerId;
    };
    let proven: string | undefined;
    for (let i = 0; i < 25 && proven === undefined; i++) {
      proven = await customerOf();
      if (proven === undefined) await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(proven).toBe('cli-customer'); // within ~1 s (the poll is 100 ms); the key cache used to hold the old secrets for ~30 s
  });
});
