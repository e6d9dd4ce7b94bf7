// Durability of acknowledged events across kill -9 and SIGTERM, with the compiled server as a child process.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabases } from '../../src/store/database.js';
import { eventsApplied, killIfRunning, startChildServer, type ChildServer } from '../support/child-server.js';
import { newShop, tempDataDir, wireProduct, type TestShop } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

function api(child: ChildServer, shop: TestShop) {
  return async (pathAndQuery: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<{ status: number; body: any }> => {
    const res = await fetch(child.url + pathAndQuery, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${init.key ?? shop.publicKey}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: await res.json() };
  };
}

/** Products 1-10 get 20 single views each; product 11+j gets a batch of 2(j+1) purchases. */
async function burst(child: ChildServer, shop: TestShop): Promise<string[]> {
  const call = api(child, shop);
  const singles = Array.from({ length: 200 }, async (_, i) => {
    const { status, body } = await call('/api/events', { method: 'POST', body: { type: 'view', productId: String((i % 10) + 1), sessionId: `solo-${i}` } });
    expect(status).toBe(200);
    return [body.eventId as string];
  });
  const batches = Array.from({ length: 10 }, async (_, j) => {
    const events = Array.from({ length: 2 * (j + 1) }, (_, k) => ({ type: 'purchase', productId: String(11 + j), sessionId: `buyer-${j}-${k}` }));
    const { status, body } = await call('/api/events/batch', { method: 'POST', body: { events } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, accepted: events.length });
    return (body.results as { eventId: string }[]).map((r) => r.eventId);
  });
  const acked = (await Promise.all([...singles, ...batches])).flat();
  for (const id of acked) expect(id).toMatch(EVENT_ID);
  return acked;
}

/** Every acked event is in the restarted server's models, and in LMDB under its eventId. */
async function expectAllThere(child: ChildServer, shop: TestShop, dataDir: string, acked: string[]): Promise<void> {
  const call = api(child, shop);
  expect(await eventsApplied(child.url, shop)).toBe(acked.length);
  const trending = await call('/api/recommendations?strategy=trending&limit=9');
  expect(trending.body.products.map((p: { id: string }) => p.id.split('/').pop())).toEqual(['20', '19', '18', '17', '16', '15', '14', '13', '12']);
  const views = await Promise.all(Array.from({ length: 200 }, (_, i) => call(`/api/recommendations?strategy=recently-viewed&sessionId=solo-${i}&limit=1`)));
  views.forEach(({ body }, i) => {
    expect(body.products[0]).toMatchObject({ id: `gid://shopify/Product/${(i % 10) + 1}`, strategy: 'recently-viewed' });
  });
  // Stop the child before reading its LMDB from this process.
  child.process.kill('SIGKILL');
  await child.exited;
  const dbs = openDatabases(path.join(dataDir, 'db'));
  try {
    const stored = new Set(storedEvents(dbs, shop.shopId).map(({ eventId }) => eventId));
    const missing = acked.filter((eventId) => !stored.has(eventId));
    expect(missing).toEqual([]);
  } finally {
    await dbs.root.close();
  }
}

describe('crash and signals', () => {
  const children: ChildServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      await killIfRunning(child);
      expect(child.output()).not.toContain('Falling back');
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function start(dataDir: string, shop: TestShop): Promise<ChildServer> {
    const child = await startChildServer(dataDir, shop);
    children.push(child);
    return child;
  }

  async function loadCatalog(child: ChildServer, shop: TestShop): Promise<void> {
    const products = Array.from({ length: 20 }, (_, i) => wireProduct(String(i + 1)));
    const { status } = await api(child, shop)('/api/products', { method: 'PUT', key: shop.secretKey, body: { products } });
    expect(status).toBe(200);
  }

  /** A server on a fresh data dir with a catalog, after a burst of acknowledged events. */
  async function serverAfterBurst() {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const shop = newShop();
    const first = await start(dataDir, shop);
    await loadCatalog(first, shop);
    const acked = await burst(first, shop);
    return { dataDir, shop, first, acked };
  }

  test('When the server is killed with SIGKILL right after the last ack, then every acked event is there after restart', async () => {
    const { dataDir, shop, first, acked } = await serverAfterBurst();
    first.process.kill('SIGKILL');
    const exit = await first.exited;

    expect(exit.signal).toBe('SIGKILL');
    expect(acked).toHaveLength(310);
    expect(new Set(acked).size).toBe(310);
    const second = await start(dataDir, shop);
    await expectAllThere(second, shop, dataDir, acked);
  });

  test('When the server gets SIGTERM, then it exits 0 and every acked event is there after restart', async () => {
    const { dataDir, shop, first, acked } = await serverAfterBurst();
    first.process.kill('SIGTERM');
    const exit = await first.exited;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain('SIGTERM: shutting down');
    const second = await start(dataDir, shop);
    await expectAllThere(second, shop, dataDir, acked);
  });
});
