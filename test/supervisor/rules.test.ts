// PAIRWISE_SERVERS=2, the real compiled service: a rule put through one server process is read and
// applied by the other (its answer read at the write's position), and its removal likewise. Each
// client keeps one connection, so it talks to one server.
import { Agent, request } from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { killIfRunning, startChildServer, type ChildServer } from '../support/child-server.js';
import { newShop, tempDataDir, wireProduct } from '../support/service.js';

const shop = newShop('multi-rules');
const dataDir = tempDataDir();
let supervisor: ChildServer;

class Client {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  pid = 0;

  async call(method: string, path: string, body?: unknown, key = shop.secretKey): Promise<{ status: number; json: any; text: string }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(new URL(supervisor.url + path), { method, agent: this.agent, headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text, json: text.startsWith('{') ? JSON.parse(text) : undefined }));
      });
      req.once('error', reject);
      req.end(payload);
    });
  }
}

async function clientPerServer(): Promise<[Client, Client]> {
  const byPid = new Map<number, Client>();
  for (let i = 0; i < 200 && byPid.size < 2; i++) {
    const client = new Client();
    client.pid = (await client.call('GET', '/healthz')).json.pid;
    if (!byPid.has(client.pid)) byPid.set(client.pid, client);
    else client.agent.destroy();
  }
  expect(byPid.size).toBe(2);
  return [...byPid.values()] as [Client, Client];
}

beforeAll(async () => {
  // The log's heads polled once a minute: what reaches the other server sooner came by its notice.
  supervisor = await startChildServer(dataDir, shop, { PAIRWISE_SERVERS: '2', PAIRWISE_LOG_POLL_MS: '60000' });
  for (let i = 0; i < 200 && (supervisor.output().match(/ready:/g) ?? []).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
});

afterAll(async () => {
  await killIfRunning(supervisor);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('rules with PAIRWISE_SERVERS=2', () => {
  test('When a rule is put through one server, then the other lists it and applies it at the write position; removed, likewise', async () => {
    const [a, b] = await clientPerServer();
    expect((await a.call('PUT', '/api/products', { products: ['1', '2', '3'].map((id) => wireProduct(id)) })).status).toBe(200);
    const put = await a.call('PUT', '/api/rules/spotlight', { then: { pin: [{ productId: '3', position: 1 }] } });
    expect(put.status).toBe(201);

    expect((await b.call('GET', '/api/rules/spotlight')).json).toMatchObject({ id: 'spotlight' });
    const pinned = await b.call('GET', `/api/recommendations?strategy=trending&after=${put.json.position}`, undefined, shop.publicKey);
    expect(pinned.json.products[0]).toMatchObject({ id: 'gid://shopify/Product/3', ruleId: 'spotlight' });
    expect(pinned.json.meta.stale).toBeUndefined();

    const removed = await b.call('DELETE', '/api/rules/spotlight');
    expect(removed.status).toBe(200);
    const plain = await a.call('GET', `/api/recommendations?strategy=trending&after=${removed.json.position}`, undefined, shop.publicKey);
    expect(plain.json.products.some((p: { ruleId?: string }) => p.ruleId !== undefined)).toBe(false);
    expect((await a.call('GET', '/api/rules')).json).toEqual({ rules: [] });
  });
});
