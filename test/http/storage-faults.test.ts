// Commits the storage refuses (injected: the real LMDB stores everything else, and a refusal looks
// like lmdb-js's, its cause on `commitError`): 503 for exactly the writes they held, nothing of them
// stored or applied, reads go on, and writes succeed again once the refusals stop. full-disk.test.ts
// does the same on a disk that really fills.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StreamClient } from '../ws/stream-client.js';
import { CommitControl } from '../support/commit-control.js';
import { expectProblem } from '../support/problem.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';

describe('commits the storage refuses', () => {
  const control = new CommitControl();
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ committer: control.committer });
    await putProducts(t, [1, 2, 3].map((i) => wireProduct(String(i))));
  });
  afterAll(async () => {
    control.refuseCommits();
    await t.cleanup();
  });

  const eventCount = () => t.service.engines.get(t.shop.shopId).eventCount;
  const postEvent = (event: Record<string, unknown>) => t.fetch('/api/events', { method: 'POST', body: JSON.stringify(event) });

  function storedSessions(): Set<string> {
    const sessions = new Set<string>();
    for (const { event } of storedEvents(t.service.dbs, t.shop.shopId)) sessions.add(event.sessionId);
    return sessions;
  }

  test('When every commit is refused, then REST, batch, WebSocket and catalog writes answer unavailable, nothing of them is stored or applied, and reads go on', async () => {
    // Arrange
    const before = eventCount();
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    control.refuseCommits(() => true);

    // Act
    const single = await postEvent({ type: 'view', productId: '1', sessionId: 'refused-single', messageId: 'refused-1' });
    const batch = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events: [1, 2].map((i) => ({ type: 'click', productId: String(i), sessionId: 'refused-batch' })) }) });
    const wsOne = await client.request({ op: 'event', ref: 'one', event: { type: 'view', productId: '2', sessionId: 'refused-ws' } });
    const wsMany = await client.request({ op: 'events', ref: 'many', events: [{ type: 'view', productId: '3', sessionId: 'refused-ws' }] });
    const upsert = await t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products: [wireProduct('9')] }) });
    const removal = await t.fetch('/api/products/1', { method: 'DELETE', key: t.shop.secretKey });

    // Assert: each refused write answered unavailable
    const problem = await expectProblem(single, 503, 'unavailable');
    expect(problem.detail).toMatch(/could not be stored: the commit failed: No space left on device \(injected\) \(errno 28\)/);
    await expectProblem(batch, 503, 'unavailable');
    expect(wsOne).toMatchObject({ op: 'error', ref: 'one', error: { code: 'unavailable' } });
    expect(wsMany).toMatchObject({ op: 'error', ref: 'many', error: { code: 'unavailable' } });
    await expectProblem(upsert, 503, 'unavailable');
    await expectProblem(removal, 503, 'unavailable');
    // ...nothing of them stored or applied
    expect([...storedSessions()].filter((s) => s.startsWith('refused'))).toEqual([]);
    expect(eventCount()).toBe(before);
    expect(t.service.dbs.products.get([t.shop.shopId, '9'])).toBeUndefined();
    expect(t.service.dbs.products.get([t.shop.shopId, '1'])).toBeDefined();
    // ...and reads go on
    expect((await t.fetch('/api/recommendations?strategy=trending&limit=3')).status).toBe(200);
    expect((await t.fetch('/api/products/1', { key: t.shop.secretKey })).status).toBe(200);
    expect((await t.fetch('/healthz')).status).toBe(200);

    // Once commits are no longer refused, the same writes succeed without a restart
    control.refuseCommits();
    const retried = await postEvent({ type: 'view', productId: '1', sessionId: 'refused-single', messageId: 'refused-1' });
    expect(retried.status).toBe(200);
    expect((await retried.json()).duplicate).toBeUndefined();
    expect(await client.request({ op: 'event', ref: 'again', event: { type: 'view', productId: '2', sessionId: 'refused-ws' } })).toMatchObject({ op: 'ack' });
    expect((await t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products: [wireProduct('9')] }) })).status).toBe(200);
    expect(eventCount()).toBe(before + 2);
    client.close();
  });

  test('When every other one of concurrent commits is refused, then exactly the events of the refused ones answer unavailable and the others are acked', async () => {
    // Arrange
    const before = eventCount();
    let commits = 0;
    control.refuseCommits(() => commits++ % 2 === 1);

    // Act: ten single events and four batches of three, all at once
    const singles = Array.from({ length: 10 }, (_, i) => `mixed-single-${i}`);
    const batches = Array.from({ length: 4 }, (_, i) => `mixed-batch-${i}`);
    const answers = await Promise.all([
      ...singles.map((sessionId) => postEvent({ type: 'view', productId: '1', sessionId })),
      ...batches.map((sessionId) =>
        t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events: [1, 2, 3].map((p) => ({ type: 'view', productId: String(p), sessionId })) }) }),
      ),
    ]);
    control.refuseCommits();

    // Assert: stored (and applied) exactly when acknowledged
    const stored = storedSessions();
    const sessions = [...singles, ...batches];
    let acked = 0;
    for (const [i, res] of answers.entries()) {
      const sessionId = sessions[i]!;
      if (res.status === 200) {
        acked += i < singles.length ? 1 : 3;
        expect(stored.has(sessionId), sessionId).toBe(true);
      } else {
        await expectProblem(res, 503, 'unavailable');
        expect(stored.has(sessionId), sessionId).toBe(false);
      }
    }
    expect(answers.filter((res) => res.status === 503)).toHaveLength(7);
    expect(eventCount()).toBe(before + acked);
  });
});
