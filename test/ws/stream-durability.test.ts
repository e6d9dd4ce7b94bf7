// Acks mean durable: an acked event survives kill -9, no ack leaves before the commit's disk flush
// (held by the test), and a graceful stop sends the acks of events in flight before closing the sockets.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { eventsApplied, killIfRunning, startChildServer, type ChildServer } from '../support/child-server.js';
import { CommitControl } from '../support/commit-control.js';
import { newShop, startTestService, tempDataDir, type TestService } from '../support/service.js';
import { sleep, StreamClient, type Message } from './stream-client.js';

describe('stream durability', () => {
  const children: ChildServer[] = [];
  const services: TestService[] = [];
  const dirs: string[] = [];
  const clients: StreamClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const child of children.splice(0)) await killIfRunning(child);
    for (const t of services.splice(0)) await t.cleanup();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('When the server is killed with SIGKILL right after the last ack, then every acked event is there after restart', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const shop = newShop();
    const first = await startChildServer(dataDir, shop);
    children.push(first);
    const client = await StreamClient.open(first.url, shop.publicKey, { binary: true });
    clients.push(client);

    const replies = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        client.request({ op: 'events', ref: `b${i}`, events: Array.from({ length: 10 }, (_, k) => ({ type: 'view', productId: String(k + 1), sessionId: `s${i}` })) }),
      ),
      ...Array.from({ length: 10 }, (_, i) => client.request({ op: 'event', ref: `e${i}`, event: { type: 'purchase', productId: '42', sessionId: `p${i}` } })),
    ]);
    first.process.kill('SIGKILL');
    await first.exited;

    const acked = replies.flatMap((m: Message) => (m.op === 'acks' ? m.results.map((r: { eventId: string }) => r.eventId) : [m.eventId]));
    expect(acked).toHaveLength(110);
    expect(new Set(acked).size).toBe(110);
    const second = await startChildServer(dataDir, shop);
    children.push(second);
    expect(await eventsApplied(second.url, shop)).toBe(110);
    expect(second.output()).not.toContain('Falling back');
  });

  test('When event ops are committed but their flush is held, then their acks come only after the flush', async () => {
    // Arrange
    const control = new CommitControl();
    const t = await startTestService({ committer: control.committer });
    services.push(t);
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    clients.push(client);
    const release = control.holdFlushes();
    const committedBefore = control.committed;

    // Act: one event op and one events op, committed before the test looks
    client.send({ op: 'event', ref: 'one', event: { type: 'view', productId: '1', sessionId: 'held' } });
    client.send({ op: 'events', ref: 'many', events: [1, 2].map((k) => ({ type: 'click', productId: String(k), sessionId: 'held' })) });
    await control.untilCommitted(committedBefore + 2);
    await sleep(200);

    // Assert: nothing answered while the flush is held, both acks after it
    expect(client.all((m) => m.ref === 'one' || m.ref === 'many'), 'acked before the flush').toEqual([]);
    release();
    expect(await client.next((m) => m.ref === 'one')).toMatchObject({ op: 'ack' });
    expect(await client.next((m) => m.ref === 'many')).toMatchObject({ op: 'acks', accepted: 2 });
  });

  test('When the service stops while event ops are in flight, then their acks are sent before the socket closes with 1001', async () => {
    const t = await startTestService();
    services.push(t);
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    clients.push(client);
    const events = Array.from({ length: 100 }, (_, k) => ({ type: 'view', productId: String(k + 1), sessionId: 'closing' }));
    for (let i = 0; i < 20; i++) client.send({ op: 'events', ref: i, events });
    await new Promise<void>((resolve) => {
      const poll = () => (t.service.stream.stats().inFlight > 0 ? resolve() : setImmediate(poll));
      poll();
    });

    await t.stop();
    const closed = await client.closed;

    expect(closed.code).toBe(1001);
    const acks = client.all((m) => m.op === 'acks');
    const refused = client.all((m) => m.op === 'error');
    expect(acks.length).toBeGreaterThan(0);
    for (const m of refused) expect(m.error.code).toBe('unavailable');
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop });
    services.push(again);
    expect(again.service.engines.get(t.shop.shopId).eventCount).toBe(acks.length * 100);
  });
});
