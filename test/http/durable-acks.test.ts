// Acknowledged means on disk: with the flush of a commit held (the real LMDB commits, the disk sync
// is a promise the test controls), no answer leaves before the flush resolves. kill -9 cannot show
// this: the OS keeps what LMDB wrote in its page cache, flushed or not (crash.test.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { CommitControl, settlesWithin } from '../support/commit-control.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';

/** How long a held answer must stay unanswered: an answer not waiting for the flush leaves within milliseconds of the commit. */
const QUIET_MS = 200;

describe('acknowledgements wait for the disk flush', () => {
  const control = new CommitControl();
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ committer: control.committer });
    await putProducts(t, [wireProduct('1'), wireProduct('2')]);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  /** Events of a session already committed to LMDB (readable here whether flushed or not). */
  function sessionEvents(sessionId: string): TrackedEvent[] {
    return storedEvents(t.service.dbs, t.shop.shopId)
      .map(({ event }) => event)
      .filter((event) => event.sessionId === sessionId);
  }

  test('When a single event is committed but its flush is held, then POST /api/events answers only after the flush', async () => {
    // Arrange
    const release = control.holdFlushes();
    const committedBefore = control.committed;

    // Act
    const answer = t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '1', sessionId: 'held-single' }) });
    await control.untilCommitted(committedBefore + 1);

    // Assert: committed, readable, and unanswered until the flush
    expect(sessionEvents('held-single')).toHaveLength(1);
    expect(await settlesWithin(answer, QUIET_MS), 'answered before the flush').toBe(false);
    release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });
  });

  test('When a batch is committed but its flush is held, then POST /api/events/batch answers only after the flush', async () => {
    const release = control.holdFlushes();
    const committedBefore = control.committed;
    const events = [1, 2, 3].map((i) => ({ type: 'click', productId: String((i % 2) + 1), sessionId: 'held-batch' }));

    const answer = t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events }) });
    await control.untilCommitted(committedBefore + 1);

    expect(sessionEvents('held-batch')).toHaveLength(3);
    expect(await settlesWithin(answer, QUIET_MS), 'answered before the flush').toBe(false);
    release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, accepted: 3 });
  });

  test('When a catalog upsert is committed but its flush is held, then PUT /api/products answers only after the flush', async () => {
    const release = control.holdFlushes();
    const committedBefore = control.committed;

    const answer = t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products: [wireProduct('3')] }) });
    await control.untilCommitted(committedBefore + 1);

    expect(t.service.dbs.products.get([t.shop.shopId, '3'])).toBeDefined();
    expect(await settlesWithin(answer, QUIET_MS), 'answered before the flush').toBe(false);
    release();
    expect((await answer).status).toBe(200);
  });
});
