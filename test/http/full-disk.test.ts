// A disk that fills for real (a small tmpfs of the test's own): failed commits answer 503 for the
// events they held, reads go on, writes resume once space returns, and nothing hangs or exits —
// neither the running service, nor a start or a stop on a full disk, nor the compiled server's exit.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { killIfRunning, startChildServer, type ChildServer } from '../support/child-server.js';
import { settlesWithin } from '../support/commit-control.js';
import { newShop, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { Tmpfs, tmpfsUnavailable } from '../support/tmpfs.js';
import { storedEvents } from '../support/stored-events.js';

const MiB = 1 << 20;
/** What a stop or a start on a full disk may take at most: nothing there waits on the disk. */
const PROMPTLY_MS = 10_000;
const unavailable = tmpfsUnavailable();

/** 100 events of about 1 KB each (metadata near its 1 KiB bound), all of one session (the batch's tag). */
function bigBatch(sessionId: string, count = 100): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, k) => ({ type: 'view', productId: String((k % 5) + 1), sessionId, metadata: { pad: 'x'.repeat(1000) } }));
}

interface Sent {
  sessionId: string;
  status: number;
  eventIds: string[];
}

async function postBatch(baseUrl: string, key: string, sessionId: string, count?: number): Promise<Sent> {
  const res = await fetch(`${baseUrl}/api/events/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events: bigBatch(sessionId, count) }),
  });
  const body = (await res.json()) as { code?: string; results?: { eventId: string }[] };
  if (res.status === 503) expect(body.code).toBe('unavailable');
  return { sessionId, status: res.status, eventIds: res.status === 200 ? body.results!.map((r) => r.eventId) : [] };
}

/** Sends batches one after another until one is refused; returns all that were sent. */
async function fillThroughApi(baseUrl: string, key: string): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (let i = 0; i < 100; i++) {
    const batch = await postBatch(baseUrl, key, `fill-${i}`);
    sent.push(batch);
    if (batch.status !== 200) return sent;
  }
  throw new Error('the disk never filled');
}

describe.skipIf(unavailable !== undefined)(`a full disk (a tmpfs of its own${unavailable === undefined ? '' : `; skipped: ${unavailable}`})`, () => {
  const disks: Tmpfs[] = [];
  const services: TestService[] = [];
  const children: ChildServer[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await killIfRunning(child);
    for (const t of services.splice(0)) await t.stop();
    for (const disk of disks.splice(0)) disk.unmount();
  });

  function mount(size = 16 * MiB): Tmpfs {
    const disk = Tmpfs.mount(size);
    disks.push(disk);
    return disk;
  }

  async function start(dataDir: string, shop = newShop()): Promise<TestService> {
    const t = await startTestService({ dataDir, shop });
    services.push(t);
    return t;
  }

  function storedSessions(t: TestService): Map<string, TrackedEvent[]> {
    const sessions = new Map<string, TrackedEvent[]>();
    for (const { event } of storedEvents(t.service.dbs, t.shop.shopId)) {
      sessions.set(event.sessionId, [...(sessions.get(event.sessionId) ?? []), event]);
    }
    return sessions;
  }

  test('When the disk fills under a stream of events, then failed commits answer 503 for exactly their events, reads go on, writes resume once space returns, and stop() completes', async () => {
    // Arrange: about 1 MiB left for events
    const disk = mount();
    const t = await start(disk.dir);
    await putProducts(t, [1, 2, 3, 4, 5].map((i) => wireProduct(String(i))));
    const filler = disk.fill('filler', MiB);

    // Act: fill it through the API, then a burst of concurrent writes on the full disk
    const sent = await fillThroughApi(t.url, t.shop.publicKey);
    const burst = await Promise.all([
      ...[0, 1, 2].map((k) => postBatch(t.url, t.shop.publicKey, `burst-batch-${k}`)),
      ...[0, 1, 2].map((k) => postBatch(t.url, t.shop.publicKey, `burst-single-${k}`, 1)),
    ]);
    const all = [...sent, ...burst];

    // Assert: a 200 for stored events only, a 503 for events stored nowhere, the models match LMDB
    const stored = storedSessions(t);
    for (const { sessionId, status, eventIds } of all) {
      expect([200, 503]).toContain(status);
      if (status === 200) expect(stored.get(sessionId)?.length, sessionId).toBe(eventIds.length);
      else expect(stored.get(sessionId), sessionId).toBeUndefined();
    }
    const storedCount = [...stored.values()].reduce((sum, events) => sum + events.length, 0);
    expect(t.service.engines.get(t.shop.shopId).eventCount).toBe(storedCount);
    expect(all.filter((s) => s.status === 503).length).toBeGreaterThan(0);
    expect((await t.fetch('/api/recommendations?strategy=trending&limit=3')).status).toBe(200);
    expect((await t.fetch('/healthz')).status).toBe(200);

    // Space returns: the next write is stored without a restart, and stop() completes
    rmSync(filler);
    const after = await postBatch(t.url, t.shop.publicKey, 'after-space-returned');
    expect(after.status).toBe(200);
    expect(storedSessions(t).get('after-space-returned')).toHaveLength(100);
    const stopped = t.stop();
    expect(await settlesWithin(stopped, PROMPTLY_MS), 'stop() on a disk that was full').toBe(true);
    await stopped; // rejects when LMDB did not close
  });

  test('When the service restarts onto a full disk, then it starts, serves reads, answers writes (stored or 503) and stops promptly', async () => {
    // Arrange: a store with events, stopped, and its disk filled to the last byte
    const disk = mount();
    const first = await start(disk.dir);
    await putProducts(first, [1, 2, 3].map((i) => wireProduct(String(i))));
    expect((await postBatch(first.url, first.shop.publicKey, 'before', 20)).status).toBe(200);
    await first.stop();
    disk.fill('filler');

    // Act
    const restarted = startTestService({ dataDir: disk.dir, shop: first.shop });
    expect(await settlesWithin(restarted, PROMPTLY_MS), 'start on a full disk').toBe(true);
    const t = await restarted;
    services.push(t);

    // Assert
    expect(t.service.engines.get(t.shop.shopId).eventCount).toBe(20);
    expect((await t.fetch('/api/recommendations?strategy=trending&limit=3')).status).toBe(200);
    const write = await postBatch(t.url, t.shop.publicKey, 'on-full-disk');
    expect([200, 503]).toContain(write.status);
    const stopped = t.stop();
    expect(await settlesWithin(stopped, PROMPTLY_MS), 'stop() on a full disk').toBe(true);
    await stopped;
  });

  test('When the service starts on a full disk that has no database yet, then start-up fails at once with a clear message, in-process and as the compiled server', async () => {
    // Arrange: creating LMDB's lock file here would end in a SIGBUS, with no message
    const disk = mount(4 * MiB);
    disk.fill('filler');

    // Act
    const started = startTestService({ dataDir: disk.dir });
    const child = startChildServer(disk.dir, newShop());

    // Assert
    expect(await settlesWithin(started, PROMPTLY_MS), 'start on a full disk').toBe(true);
    await expect(started).rejects.toThrow(/^no space left to create the database in .*: \d+ bytes free$/);
    expect(await settlesWithin(child, PROMPTLY_MS), 'the compiled server starting on a full disk').toBe(true);
    await expect(child).rejects.toThrow(/server exited early:\nstart-up failed: no space left to create the database/);
  });

  test('When the compiled server fills its disk, then it keeps serving and exits 0 on SIGTERM, also after a restart onto the full disk', async () => {
    // Arrange
    const disk = mount();
    const shop = newShop();
    const first = await startChildServer(disk.dir, shop);
    children.push(first);
    disk.fill('filler', MiB);

    // Act + Assert: 503s, the process alive and reading
    const sent = await fillThroughApi(first.url, shop.publicKey);
    expect(sent.at(-1)!.status).toBe(503);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    const read = await fetch(`${first.url}/api/recommendations?strategy=trending&limit=3`, { headers: { authorization: `Bearer ${shop.publicKey}` } });
    expect(read.status).toBe(200);
    first.process.kill('SIGTERM');
    expect(await settlesWithin(first.exited, PROMPTLY_MS), `exit after SIGTERM:\n${first.output()}`).toBe(true);
    expect(await first.exited).toEqual({ code: 0, signal: null });

    // The same data, the disk full to the last byte: it starts, answers, and stops again
    disk.fill('filler-2');
    const second = await startChildServer(disk.dir, shop);
    children.push(second);
    const again = await postBatch(second.url, shop.publicKey, 'on-full-disk', 1);
    expect([200, 503]).toContain(again.status);
    second.process.kill('SIGTERM');
    expect(await settlesWithin(second.exited, PROMPTLY_MS), `exit after SIGTERM:\n${second.output()}`).toBe(true);
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.output()).not.toContain('Falling back');
  });
});
