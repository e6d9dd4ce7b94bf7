// Limits and backpressure: frame size cap, subscription cap, ops awaiting acks, and slow readers —
// live pushes skipped (not queued) while a reader is behind, a close when it never drains, and a
// fast reader on the same subscription unaffected.
import { afterEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { productIds, sleep, StreamClient, type Message } from './stream-client.js';

const isPush = (sub: string) => (m: Message) => m.op === 'recommendations' && m.sub === sub && m.ref === undefined;
const LONG_TITLE = 'Hand-thrown stoneware with a long descriptive title '.repeat(8);

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

function purchases(productId: string, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ type: 'purchase', productId, sessionId: `p-${productId}-${i}-${Math.random()}` }));
}

/** Stops reading the client's TCP socket: the server's frames pile up in the kernel, then in uWS. */
function pause(client: StreamClient): void {
  (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
}

function resume(client: StreamClient): void {
  (client.socket as unknown as { _socket: { resume(): void } })._socket.resume();
}

/**
 * Makes a paused client fall behind: it asks for a big list again and again (a repeated subscribe is
 * answered each time, ~15 KB) until the server marks it behind or, with `untilClosed`, closes it.
 */
async function flood(t: TestService, client: StreamClient, untilClosed = false): Promise<void> {
  const query = { strategy: 'trending', limit: 24, exclude: ['30'] };
  const done = () => (untilClosed ? t.service.stream.stats().connections < 2 : t.service.stream.stats().behind > 0);
  for (let round = 0; round < 2_000 && !done(); round++) {
    for (let i = 0; i < 4; i++) client.send({ op: 'subscribe', ref: `f${round}-${i}`, query });
    await sleep(2);
  }
  if (!done()) throw new Error('the flood did not get the client behind');
}

describe('stream limits', () => {
  const started: TestService[] = [];
  const clients: StreamClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(env: Record<string, string> = {}): Promise<TestService> {
    const t = await startTestService({ env });
    started.push(t);
    await putProducts(t, Array.from({ length: 30 }, (_, i) => wireProduct(String(i + 1), { title: `${LONG_TITLE}${i + 1}` })));
    await postEvents(t, [...purchases('1', 6), ...purchases('2', 4), ...purchases('3', 2)]);
    return t;
  }

  async function open(t: TestService, binary = false): Promise<StreamClient> {
    const client = await StreamClient.open(t.url, t.shop.publicKey, { binary });
    clients.push(client);
    return client;
  }

  test.each([
    ['text', (bytes: number) => JSON.stringify({ op: 'ping', ref: 'x'.repeat(bytes) })],
    ['binary', (bytes: number) => Buffer.alloc(bytes)],
  ])('When a %s frame is larger than the payload cap, then that connection is closed with 1009 and a reason, and the others go on', async (_kind, frame) => {
    const t = await start();
    const abuser = await open(t);
    const other = await open(t);

    abuser.sendRaw(frame(70 * 1024));
    const closed = await abuser.closed;

    expect(closed.code).toBe(1009);
    expect(closed.reason).toMatch(/65536 bytes/);
    await until(() => t.service.stream.stats().connections === 1);
    expect(await other.request({ op: 'ping', ref: 'ok' })).toMatchObject({ op: 'pong', ref: 'ok' });
  });

  test('When a frame is far past the cap, then uWS cuts that connection without reading it and the others go on', async () => {
    const t = await start();
    const abuser = await open(t);
    const other = await open(t);

    abuser.sendRaw(Buffer.alloc(1024 * 1024));
    const closed = await abuser.closed;

    // Past 4× the cap uWS refuses the frame from its header and closes without a close frame.
    expect(closed.code).toBe(1006);
    await until(() => t.service.stream.stats().connections === 1);
    expect(await other.request({ op: 'ping', ref: 'ok' })).toMatchObject({ op: 'pong', ref: 'ok' });
  });

  test('When a text frame is not UTF-8, then uWS cuts that connection and the others go on', async () => {
    const t = await start();
    const abuser = await open(t);
    const other = await open(t);

    abuser.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    const closed = await abuser.closed;

    // RFC 6455 would say 1007, but uWS checks UTF-8 before our handler sees the frame and closes the
    // TCP connection without a close frame: the client sees 1006.
    expect(closed.code).toBe(1006);
    await until(() => t.service.stream.stats().connections === 1);
    expect(await other.request({ op: 'ping', ref: 'ok' })).toMatchObject({ op: 'pong', ref: 'ok' });
  });

  test('When a connection subscribes past its cap, then too_many_subscriptions, and re-subscribing a held query is not counted', async () => {
    const t = await start({ PAIRWISE_WS_MAX_SUBSCRIPTIONS: '3' });
    const client = await open(t);
    for (const limit of [1, 2, 3]) expect((await client.request({ op: 'subscribe', ref: limit, query: { limit } })).op).toBe('recommendations');

    const again = await client.request({ op: 'subscribe', ref: 'again', query: { limit: 3 } });
    const fourth = await client.request({ op: 'subscribe', ref: 'fourth', query: { limit: 4 } });

    expect(again).toMatchObject({ op: 'recommendations', ref: 'again' });
    expect(fourth).toMatchObject({ op: 'error', ref: 'fourth', error: { code: 'too_many_subscriptions' } });
  });

  test("When a shop's connections ask for more distinct queries than its topic cap, then the extra ones get too_many_subscriptions, a held query can still be joined, and a topic left by its last member frees its place", async () => {
    const t = await start({ PAIRWISE_WS_MAX_TOPICS_PER_SHOP: '4' });
    const first = await open(t);
    const second = await open(t);
    for (const sessionId of ['s1', 's2', 's3']) expect((await first.request({ op: 'subscribe', ref: sessionId, query: { sessionId } })).op).toBe('recommendations');
    const fourth = await second.request({ op: 'subscribe', ref: 's4', query: { sessionId: 's4' } });
    expect(fourth).toMatchObject({ op: 'recommendations' });

    const fifth = await second.request({ op: 'subscribe', ref: 's5', query: { sessionId: 's5' } });
    expect(fifth).toMatchObject({ op: 'error', ref: 's5', error: { code: 'too_many_subscriptions' } });
    expect(await second.request({ op: 'subscribe', ref: 'join', query: { sessionId: 's1' } })).toMatchObject({ op: 'recommendations', ref: 'join' });
    expect(t.service.stream.stats().topics).toBe(4);

    second.send({ op: 'unsubscribe', sub: fourth.sub });
    await until(() => t.service.stream.stats().topics === 3);
    expect(await second.request({ op: 'subscribe', ref: 's5', query: { sessionId: 's5' } })).toMatchObject({ op: 'recommendations', ref: 's5' });
  });

  test('When a connection has too many event ops awaiting acks, then the extra ones get rate_limited at once', async () => {
    const t = await start({ PAIRWISE_WS_MAX_IN_FLIGHT: '2' });
    const client = await open(t, true);
    const event = { type: 'view', productId: '1', sessionId: 'burst' };

    for (let i = 0; i < 20; i++) client.send({ op: 'event', ref: i, event });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => client.next((m) => m.ref === i)));

    const limited = replies.filter((m) => m.op === 'error');
    expect(limited.length).toBeGreaterThan(0);
    for (const m of limited) expect(m.error.code).toBe('rate_limited');
    expect(replies.filter((m) => m.op === 'ack').length).toBe(20 - limited.length);
  });

  test('When a reader falls behind, then its pushes are skipped (not queued) while a fast reader gets each one, and it gets only the latest list once it drains', async () => {
    const t = await start({ PAIRWISE_WS_MAX_BACKPRESSURE_BYTES: String(256 * 1024) });
    const fast = await open(t);
    const slow = await open(t);
    const query = { strategy: 'trending', limit: 3 };
    const { sub } = await fast.request({ op: 'subscribe', ref: 1, query });
    expect((await slow.request({ op: 'subscribe', ref: 1, query })).sub).toBe(sub);
    pause(slow);
    await flood(t, slow);

    await postEvents(t, purchases('7', 5)); // [1, 7, 2]
    const first = await fast.next(isPush(sub), 3_000);
    await postEvents(t, purchases('8', 7)); // [8, 1, 7]
    const second = await fast.next(isPush(sub), 3_000);
    const skipped = t.service.stream.stats().skipped;
    resume(slow);
    const caughtUp = await slow.next(isPush(sub), 5_000);
    await sleep(300);

    expect(productIds(first)).toEqual(['1', '7', '2']);
    expect(productIds(second)).toEqual(['8', '1', '7']);
    expect(skipped).toBeGreaterThanOrEqual(2); // both changes (and those of the flood's own big list)
    expect(productIds(caughtUp)).toEqual(['8', '1', '7']);
    expect(slow.all(isPush(sub))).toHaveLength(1);
    expect(t.service.stream.stats()).toMatchObject({ connections: 2, behind: 0 });
  });

  test('When a reader never drains, then it is closed after the stall timeout while a fast reader on the same subscription keeps receiving', async () => {
    const t = await start({ PAIRWISE_WS_MAX_BACKPRESSURE_BYTES: String(256 * 1024), PAIRWISE_WS_STALL_TIMEOUT_SECONDS: '1' });
    const fast = await open(t);
    const slow = await open(t, true);
    const { sub } = await fast.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 3 } });
    await slow.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 3 } });
    pause(slow);
    await flood(t, slow);

    await postEvents(t, purchases('7', 5));
    const whileStalled = await fast.next(isPush(sub), 3_000);
    await until(() => t.service.stream.stats().connections === 1, 4_000);
    await postEvents(t, purchases('8', 7));
    const afterClose = await fast.next(isPush(sub), 3_000);
    resume(slow);

    expect(productIds(whileStalled)).toEqual(['1', '7', '2']);
    expect(productIds(afterClose)).toEqual(['8', '1', '7']);
    expect((await slow.closed).code).toBe(1006); // closed without a close frame: it was not reading
  });

  test('When a reader keeps asking without ever reading, then it is closed at maxBackpressure and the others are not', async () => {
    const t = await start({ PAIRWISE_WS_MAX_BACKPRESSURE_BYTES: String(64 * 1024) });
    const other = await open(t);
    const abuser = await open(t);
    pause(abuser);

    await flood(t, abuser, true);

    expect(t.service.stream.stats().connections).toBe(1);
    expect(await other.request({ op: 'ping', ref: 'ok' })).toMatchObject({ op: 'pong', ref: 'ok' });
  });
});
