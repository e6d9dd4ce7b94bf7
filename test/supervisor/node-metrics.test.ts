// GET /metrics with PAIRWISE_SERVERS=2 answers for the node: whichever server process a scrape
// reaches, its counters are every process's together, and they never go backwards, also when a
// process is killed and the supervisor replaces it.
import { expect, test } from 'vitest';
import { twoServers } from '../support/child-server.js';
import { logLines } from '../support/log-lines.js';
import { isCount, parseMetrics, type Scrape } from '../support/metrics-text.js';
import { clientPerServer, type ServerClient } from '../support/server-client.js';
import { newShop } from '../support/service.js';

const shop = newShop('observed');
const service = twoServers(shop);

async function scrape(client: ServerClient): Promise<Scrape> {
  const reply = await client.call('GET', '/metrics', undefined, shop.secretKey);
  expect(reply.status, reply.text).toBe(200);
  return parseMetrics(reply.text);
}

const value = (scrape: Scrape, series: string) => scrape.get(series)?.value;
const reads = (scrape: Scrape) => value(scrape, 'pairwise_http_requests_total{route="/api/recommendations",method="GET",status="200"}');
const stored = (scrape: Scrape) => value(scrape, 'pairwise_events_accepted_total{result="stored"}');

/** The node's own counters, less what a scrape itself adds (its request, the processes' own CPU and memory figures). */
function nodeCounts(scrape: Scrape): [string, number][] {
  return [...scrape].filter(([series, sample]) => isCount(sample) && series.startsWith('pairwise_') && !series.includes('route="/metrics"')).map(([series, sample]) => [series, sample.value]);
}

/** Every count of `before` is in `after`, no smaller. */
function expectMonotonic(before: Scrape, after: Scrape): void {
  const shrunk = [...before].filter(([series, sample]) => isCount(sample) && !((after.get(series)?.value ?? -1) >= sample.value));
  expect(shrunk.map(([series, sample]) => `${series}: ${sample.value} → ${after.get(series)?.value}`)).toEqual([]);
}

async function readsOn(client: ServerClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) expect((await client.call('GET', `/api/recommendations?strategy=trending&limit=${i + 1}`)).status).toBe(200);
}

async function eventsOn(client: ServerClient, count: number, session: string): Promise<void> {
  for (let i = 0; i < count; i++) expect((await client.call('POST', '/api/events', { type: 'view', productId: String(i + 1), sessionId: session })).status).toBe(200);
}

test('When /metrics is scraped from either server process, then it gives the same node totals, monotonic, also after a process is killed and replaced', async () => {
  const [a, b] = await clientPerServer(service.child.url, shop.publicKey);
  await readsOn(a, 7);
  await readsOn(b, 5);
  await eventsOn(a, 3, 'on-a');
  await eventsOn(b, 2, 'on-b');

  const first = await scrape(a);
  const second = await scrape(b);
  const third = await scrape(a);

  // Each scrape holds both processes' requests and events, and each process's own series.
  for (const s of [first, second, third]) {
    expect(reads(s)).toBe(12);
    expect(stored(s)).toBe(5);
    expect(value(s, `pairwise_events_applied_total{shop="${shop.shopId}"}`)).toBe(5);
    for (const server of ['1', '2']) expect(value(s, `process_resident_memory_bytes{server="${server}"}`)).toBeGreaterThan(0);
  }
  expect(nodeCounts(second)).toEqual(nodeCounts(first));
  expect(nodeCounts(third)).toEqual(nodeCounts(first));
  expect(value(third, 'pairwise_http_requests_total{route="/metrics",method="GET",status="200"}')).toBe(2); // the first two scrapes
  expectMonotonic(first, second);
  expectMonotonic(second, third);

  // The process that served b is killed; the supervisor starts another in its place.
  const killed = b.pid;
  process.kill(killed, 'SIGKILL');
  const during = await scrape(a);
  expectMonotonic(third, during);
  expect(reads(during)).toBe(12);
  let replaced = false;
  for (let i = 0; i < 200 && !replaced; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    replaced = /server \d of 2 \(pid \d+\) ready/.test(service.child.output().split(`pid ${killed}) died`)[1] ?? '');
  }
  expect(replaced).toBe(true);
  const lines = logLines(service.child.output());
  const died = lines.find((line) => line.event === 'server-died' && line.serverPid === killed);
  expect(died).toMatchObject({ level: 'warn', signal: 'SIGKILL', server: expect.any(Number) });
  expect(lines.filter((line) => line.event === 'server-ready' && line.server === died!.server)).toHaveLength(2); // the first, and its replacement
  const [c, d] = await clientPerServer(service.child.url, shop.publicKey);
  const fresh = c.pid === a.pid ? d : c;
  expect(fresh.pid).not.toBe(killed);

  const afterRestart = await scrape(fresh);
  expectMonotonic(during, afterRestart);
  expect(reads(afterRestart)).toBe(12);
  expect(stored(afterRestart)).toBe(5);

  // What the new process counts adds to what the one it replaced had counted.
  await readsOn(fresh, 4);
  await eventsOn(fresh, 1, 'on-fresh');
  const fromNew = await scrape(fresh);
  const fromOld = await scrape(a);
  for (const s of [fromNew, fromOld]) {
    expect(reads(s)).toBe(16);
    expect(stored(s)).toBe(6);
  }
  expect(nodeCounts(fromOld)).toEqual(nodeCounts(fromNew));
  expectMonotonic(afterRestart, fromNew);
  expectMonotonic(fromNew, fromOld);
});
