// PAIRWISE_SERVERS=2, the real compiled service: a rule put through one server process is read and
// applied by the other (its answer read at the write's position), and its removal likewise. Each
// client keeps one connection, so it talks to one server.
import { describe, expect, test } from 'vitest';
import { twoServers } from '../support/child-server.js';
import { clientPerServer as clientPerServerAt, ServerClient } from '../support/server-client.js';
import { newShop, wireProduct } from '../support/service.js';

const shop = newShop('multi-rules');
// The log's heads polled once a minute: what reaches the other server sooner came by its notice.
const service = twoServers(shop, { PAIRWISE_LOG_POLL_MS: '60000' });

/** One client per server process (test/support/server-client.ts). */
const clientPerServer = () => clientPerServerAt(service.child.url, shop.secretKey);

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
