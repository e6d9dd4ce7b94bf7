// PAIRWISE_SERVERS=2, the real compiled service: a customer erased through one server process is
// gone from the other's answers (read with the erasure's position), and a shop erased through one
// has its keys refused by both. Each client keeps one connection, so it talks to one server.
import { describe, expect, test } from 'vitest';
import { twoServers } from '../support/child-server.js';
import { clientPerServer as clientPerServerAt, ServerClient } from '../support/server-client.js';
import { newShop } from '../support/service.js';

const shop = newShop('multi-erase');
// The log's heads polled once a minute: what reaches the other server sooner came by its notice.
const service = twoServers(shop, { PAIRWISE_LOG_POLL_MS: '60000' });

/** One client per server process (test/support/server-client.ts). */
const clientPerServer = () => clientPerServerAt(service.child.url, shop.secretKey);

/** The products a recently-viewed answer took from the customer's views. */
const viewed = (json: { products: { id: string; strategy: string }[] }) => json.products.filter((p) => p.strategy === 'recently-viewed').map((p) => p.id);

describe('erasure with PAIRWISE_SERVERS=2', () => {
  test('When a customer is erased through one server, then the other answers without them once it reads at the erasure position', async () => {
    const [a, b] = await clientPerServer();
    const products = ['1', '2', '3'].map((id) => ({ id, title: `P${id}`, price: '5.00', collections: ['c'] }));
    expect((await a.call('PUT', '/api/products', { products })).status).toBe(200);
    const posted = await a.call('POST', '/api/events/batch', { events: [{ type: 'view', productId: '1', sessionId: 's', customerId: 'gone' }, { type: 'view', productId: '2', sessionId: 's', customerId: 'gone' }] });
    expect(posted.status).toBe(200);
    const before = await b.call('GET', `/api/recommendations?strategy=recently-viewed&customerId=gone&after=${posted.json.position}`);
    expect(viewed(before.json).length).toBe(2);

    const erased = await a.call('DELETE', '/api/customers/gone');
    expect(erased.status).toBe(200);
    const after = await b.call('GET', `/api/recommendations?strategy=recently-viewed&customerId=gone&after=${erased.json.position}`);
    expect(after.status).toBe(200);
    expect(after.json.meta.stale).toBeUndefined();
    expect(viewed(after.json)).toEqual([]);
    expect((await b.call('GET', '/api/customers/gone')).json.events).toEqual([]);
  });

  test('When the shop is erased through one server, then both refuse its keys', async () => {
    const [a, b] = await clientPerServer();
    expect((await b.call('GET', '/api/shop')).status).toBe(200); // its key is in b's cache
    expect((await a.call('DELETE', `/api/shop?confirm=${shop.shopId}`)).status).toBe(200);
    expect((await a.call('GET', '/api/shop')).status).toBe(401);
    await expect.poll(async () => (await b.call('GET', '/api/shop')).status, { timeout: 2_000 }).toBe(401);
    expect((await b.call('GET', '/api/recommendations?strategy=trending', undefined, shop.publicKey)).status).toBe(401);
  });
});
