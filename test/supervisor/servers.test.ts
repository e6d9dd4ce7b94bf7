// PAIRWISE_SERVERS=2: a supervisor and two server processes on one port and one LMDB data dir,
// the real compiled service. Each client below keeps one connection, so it talks to one server.
import fc from 'fast-check';
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { killIfRunning, spawnChildServer, startChildServer, twoServers, untilServersReady } from '../support/child-server.js';
import { clientPerServer as clientPerServerAt, ServerClient } from '../support/server-client.js';
import { newShop, tempDataDir } from '../support/service.js';
import { logLines, type LogLine } from '../support/log-lines.js';

const shop = newShop('multi');
// The log's heads polled once a minute: what reaches the other server sooner came by its notice.
const service = twoServers(shop, { PAIRWISE_LOG_POLL_MS: '60000', PAIRWISE_EASE_REFIT_EVENTS: '20' });

/** The log's lines about the housekeeping lease, every server's. */
const housekeepingLeases = () => logLines(service.child.output()).filter((line) => line.event === 'lease' && line.lease === 'housekeeping');

/** One client per server process (test/support/server-client.ts). */
const clientPerServer = () => clientPerServerAt(service.child.url, shop.publicKey);
type Client = ServerClient;

/** Whether the process runs (a zombie left for a reaper that never comes, as in some containers, does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const products = Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1), title: `Product ${i + 1}`, price: '5.00', collections: [`c${i % 3}`], vendor: `V${i % 2}` }));

describe('PAIRWISE_SERVERS=2', () => {
  test('When writes go to one server, then reads with their position from the other never miss them, catalog and events alike', async () => {
    const [a, b] = await clientPerServer();
    const put = await a.call('PUT', '/api/products', { products }, shop.secretKey);
    expect(put.status).toBe(200);
    const similar = await b.call('GET', `/api/recommendations?strategy=similar&productId=1&limit=3&after=${put.json.position}`);
    expect(similar.status, similar.text).toBe(200);
    expect(similar.json.meta.stale).toBeUndefined();

    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 12 })), { minLength: 1, maxLength: 6 }), async (writes) => {
        const session = `s-${Math.random().toString(36).slice(2)}`;
        const viewed: string[] = [];
        for (const [toA, product] of writes) {
          const [writer, reader] = toA ? [a, b] : [b, a];
          const ack = await writer.call('POST', '/api/events', { type: 'view', productId: String(product), sessionId: session });
          expect(ack.status, ack.text).toBe(200);
          viewed.unshift(String(product));
          const read = await reader.call('GET', `/api/recommendations?strategy=recently-viewed&sessionId=${session}&limit=12&after=${ack.json.position}`);
          expect(read.status, read.text).toBe(200);
          expect(read.json.meta.stale).toBeUndefined();
          const ids = read.json.products.filter((p: { strategy: string }) => p.strategy === 'recently-viewed').map((p: { id: string }) => p.id.split('/').pop());
          expect(ids).toEqual([...new Set(viewed)]);
        }
      }),
      { numRuns: 15 },
    );
  });

  test('When a server commits, then the other applies it on its notice, without a read asking for it', async () => {
    const [a, b] = await clientPerServer();
    const ack = await a.call('POST', '/api/events', { type: 'view', productId: '7', sessionId: 'noticed' });
    const position = parseInt(ack.json.position.split('.')[1], 36);
    let behind = Infinity;
    for (let i = 0; i < 100 && behind > 0; i++) {
      behind = (await b.call('GET', '/healthz')).json.behind;
      if (behind > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(behind).toBe(0); // within 2 s, where the poll comes once a minute
    const read = await b.call('GET', '/api/recommendations?strategy=recently-viewed&sessionId=noticed&limit=1');
    expect(read.json.products[0].strategy).toBe('recently-viewed');
    expect(position).toBeGreaterThan(0);
  });

  test('When one messageId is posted to both servers at once, then it is stored once and both answers name that event', async () => {
    const [a, b] = await clientPerServer();
    for (let i = 0; i < 10; i++) {
      const event = { type: 'purchase', productId: '3', sessionId: 'dup', messageId: `order-${i}` };
      const [x, y] = await Promise.all([a.call('POST', '/api/events', event), b.call('POST', '/api/events', event)]);
      expect(x.json.eventId).toBe(y.json.eventId);
      expect([x.json.duplicate, y.json.duplicate].filter(Boolean)).toHaveLength(1);
    }
  });

  test('When the writes stop, then every strategy answers alike from both servers (recId aside)', async () => {
    const [a, b] = await clientPerServer();
    const head = await a.call('POST', '/api/events/batch', { events: products.map((p, i) => ({ type: i % 2 ? 'purchase' : 'add_to_cart', productId: p.id, sessionId: `cart-${i % 3}`, customerId: `c${i % 3}` })) }, shop.secretKey);
    const queries = ['strategy=trending', 'productId=2', 'strategy=similar&productId=2', 'collectionId=c1', 'strategy=personalized&customerId=c1', 'strategy=recently-viewed&sessionId=dup', 'customerId=c2'];
    const answers = async (client: Client) =>
      Promise.all(queries.map(async (q) => (await client.call('GET', `/api/recommendations?${q}&after=${head.json.position}`, undefined, shop.secretKey)).text.replace(/"recId":"[^"]*"/, '')));
    // Answers decay with the clock at the minute: compared within one (tried again across a boundary).
    let same = false;
    for (let attempt = 0; attempt < 3 && !same; attempt++) {
      const [x, y] = [await answers(a), await answers(b)];
      same = JSON.stringify(x) === JSON.stringify(y);
      if (attempt === 2) expect(y).toEqual(x);
    }
  });

  test('When an EASE fit is made, then it is made once, by the lease holder, and both servers install it and answer alike', async () => {
    const [a, b] = await clientPerServer();
    // The node's /metrics: the fit's size, the log's head, and how far each server process has applied it.
    const node = async () => {
      const text = (await a.call('GET', '/metrics', undefined, shop.secretKey)).text;
      const applied = [...text.matchAll(/^pairwise_log_applied_position\{shop="multi",server="\d"\} (\d+)$/gm)].map((m) => Number(m[1]));
      const head = Number(/^pairwise_log_head_position\{shop="multi"\} (\d+)$/m.exec(text)?.[1]);
      const held = [...text.matchAll(/^pairwise_housekeeping_lease_held\{server="\d"\} (\d)$/gm)].map((m) => Number(m[1]));
      return { products: Number(/^pairwise_ease_fit_products\{shop="multi"\} (\d+)$/m.exec(text)?.[1] ?? 0), caughtUp: applied.length === 2 && applied.every((p) => p === head), held };
    };
    // Refits are looked for every 10 s, and due after PAIRWISE_EASE_REFIT_EVENTS (20 here) new events.
    let seen = await node();
    for (let i = 0; i < 120 && (seen.products === 0 || !seen.caughtUp); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      seen = await node();
    }
    expect(seen.products).toBeGreaterThan(0);
    expect(seen.caughtUp).toBe(true); // both have applied the log through the fit's entry
    expect(logLines(service.child.output()).filter((line) => line.event === 'refit' && line.shop === 'multi').length).toBeGreaterThanOrEqual(1);
    expect(housekeepingLeases().filter((line) => line.held)).toHaveLength(1); // one server refits
    expect(seen.held.sort()).toEqual([0, 1]);
    const query = '/api/recommendations?strategy=personalized&customerId=c1&limit=8';
    const [x, y] = [await a.call('GET', query, undefined, shop.secretKey), await b.call('GET', query, undefined, shop.secretKey)];
    expect(y.text.replace(/"recId":"[^"]*"/, '')).toBe(x.text.replace(/"recId":"[^"]*"/, ''));
  }, 40_000);

  test('When the housekeeper is killed with SIGKILL, then another server takes the housekeeping lease over and one lease line says which', async () => {
    const [holder] = housekeepingLeases().filter((line) => line.held);
    expect(holder).toMatchObject({ level: 'info', lease: 'housekeeping', server: expect.any(Number), pid: expect.any(Number) });
    const readyLines = () => logLines(service.child.output()).filter((line) => line.event === 'server-ready').length;
    const readyBefore = readyLines();
    process.kill(holder!.pid as number, 'SIGKILL');
    // The lease outlives its holder's last renewal by 4 s: looked at every 50 ms, for 10 s at most.
    let taken: LogLine[] = [];
    for (let i = 0; i < 200 && taken.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      taken = housekeepingLeases().filter((line) => line.held && line.pid !== holder!.pid);
    }
    expect(taken).toHaveLength(1);
    // The replacement is ready before the next test looks for two servers.
    for (let i = 0; i < 200 && readyLines() === readyBefore; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readyLines()).toBe(readyBefore + 1);
  }, 20_000);

  test('When a server is killed with SIGKILL, then the other keeps answering and the supervisor starts a new one that catches up', async () => {
    const [a, b] = await clientPerServer();
    process.kill(b.pid, 'SIGKILL');
    const during = await a.call('GET', '/api/recommendations?strategy=trending');
    expect(during.status).toBe(200);
    const ack = await a.call('POST', '/api/events', { type: 'view', productId: '5', sessionId: 'after-kill' });
    let replaced = false;
    for (let i = 0; i < 200 && !replaced; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      replaced = /server \d of 2 \(pid \d+\) ready/.test(service.child.output().split(`pid ${b.pid}) died`)[1] ?? '');
    }
    expect(replaced).toBe(true);
    const [c, d] = await clientPerServer();
    expect([c.pid, d.pid]).not.toContain(b.pid);
    for (const client of [c, d]) {
      const read = await client.call('GET', `/api/recommendations?strategy=recently-viewed&sessionId=after-kill&after=${ack.json.position}`);
      expect(read.json.products[0].id).toMatch(/\/5$/);
      expect(read.json.meta.stale).toBeUndefined();
    }
    // The restarted server (restored from the snapshot, the log after it replayed) answers as the other.
    const queries = ['strategy=trending', 'productId=2', 'strategy=similar&productId=2', 'collectionId=c1', 'strategy=personalized&customerId=c1', 'strategy=recently-viewed&sessionId=after-kill'];
    const answers = async (client: Client) => Promise.all(queries.map(async (q) => (await client.call('GET', `/api/recommendations?${q}`, undefined, shop.secretKey)).text.replace(/"recId":"[^"]*"/, '')));
    let same = false;
    for (let attempt = 0; attempt < 3 && !same; attempt++) {
      const [x, y] = [await answers(c), await answers(d)];
      same = JSON.stringify(x) === JSON.stringify(y); // tried again across a 30 s answer window
      if (attempt === 2) expect(y).toEqual(x);
    }
  });

  test('When a second service is started on the same data dir, then it is refused, naming the running one', async () => {
    const second = await spawnChildServer(service.dataDir, shop, { PAIRWISE_SERVERS: '2' });
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toMatch(new RegExp(`not started: data dir .* is in use by another Pairwise server \\(pid ${service.child.process.pid}`));
  });

  test('When the supervisor gets SIGTERM, then its servers drain and it exits 0, leaving no process behind', async () => {
    const [a, b] = await clientPerServer();
    service.child.process.kill('SIGTERM');
    expect((await service.child.exited).code).toBe(0);
    for (const pid of [a.pid, b.pid]) expect(running(pid)).toBe(false);
  });
});

describe('a supervisor killed with SIGKILL', () => {
  test('When the supervisor dies, then its servers exit by themselves and free the port', async () => {
    const dir = tempDataDir();
    const other = await startChildServer(dir, newShop('orphans'), { PAIRWISE_SERVERS: '2' });
    try {
      await untilServersReady(other);
      const pids = [...other.output().matchAll(/\(pid (\d+)\) ready/g)].map((m) => Number(m[1]));
      expect(pids).toHaveLength(2);
      other.process.kill('SIGKILL');
      await other.exited; // its output pipe closes once the servers holding it have exited too
      for (const pid of pids) expect(running(pid)).toBe(false);
    } finally {
      await killIfRunning(other);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PAIRWISE_SERVERS misconfigured', () => {
  test.each(['0', '-1', 'two', '1.5', '100000'])('When PAIRWISE_SERVERS=%s, then the start is refused with a message naming the variable', async (value) => {
    const dir = tempDataDir();
    const child = await spawnChildServer(dir, newShop('bad'), { PAIRWISE_SERVERS: value });
    const { code } = await child.exited;
    expect(code).toBe(2);
    expect(child.output()).toMatch(/PAIRWISE_SERVERS must be a whole number of server processes from 1 to 256, or auto/);
    rmSync(dir, { recursive: true, force: true });
  });
});
