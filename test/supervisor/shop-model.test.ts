// The shop tunes itself at its EASE refit, through the real compiled service with two server
// processes: a shop whose newest purchases are products momentum pushes down gets a
// non-default momentum exponent, reported alike by GET /api/shop/model and /metrics on both.
import typia from 'typia';
import { describe, expect, test } from 'vitest';
import { twoServers } from '../support/child-server.js';
import { momentumShopProducts, momentumShopPurchases } from '../support/momentum-shop.js';
import { clientPerServer as clientPerServerAt, ServerClient } from '../support/server-client.js';
import { newShop } from '../support/service.js';
import type { ShopModel } from '../../src/api/responses.js';
import { logLines } from '../support/log-lines.js';

const shop = newShop('tuned');
const service = twoServers(shop, { PAIRWISE_EASE_REFIT_EVENTS: '100' });

/** One client per server process (test/support/server-client.ts). */
const clientPerServer = () => clientPerServerAt(service.child.url, shop.secretKey);

describe('GET /api/shop/model', () => {
  test('When no fit is installed yet, then the defaults are reported, untuned; a public key gets a 403 problem', async () => {
    const client = new ServerClient(service.child.url, shop.secretKey);
    const res = await client.call('GET', '/api/shop/model');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ shopId: 'tuned', fitProducts: 0, tuning: null, settings: { momentumExponent: 0.5, realTimeWeight: 0.1, historyExponent: 0, lambda: 500 } });
    expect(res.json.settings).toEqual(res.json.defaults);
    const refused = await client.call('GET', '/api/shop/model', undefined, shop.publicKey);
    expect(refused.status).toBe(403);
    expect(refused.type).toContain('application/problem+json');
    expect(refused.json.code).toBe('forbidden');
  });

  test('When the shop\'s newest purchases are products momentum pushes down, then its refit installs a lower momentum exponent, the same on both servers', async () => {
    const [a, b] = await clientPerServer();
    const products = momentumShopProducts().map((id) => ({ id, title: `Product ${id}`, price: '5.00' }));
    expect((await a.call('PUT', '/api/products', { products })).status).toBe(200);
    const events = momentumShopPurchases(Date.now() - 60_000, { archive: 40, returning: 20, fad: 6 }).map((p) => ({ type: 'purchase', productId: p.productId, customerId: p.customerId, sessionId: `s-${p.customerId}`, timestamp: p.timestamp, metadata: { orderId: p.orderId } }));
    for (let i = 0; i < events.length; i += 100) expect((await a.call('POST', '/api/events/batch', { events: events.slice(i, i + 100) })).status).toBe(200);
    // Refits are looked for every 10 s, and due after PAIRWISE_EASE_REFIT_EVENTS (100 here) new events.
    let models = [undefined, undefined] as any[];
    for (let i = 0; i < 240 && models.some((m) => !(m?.fitProducts > 0)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      models = [(await a.call('GET', '/api/shop/model')).json, (await b.call('GET', '/api/shop/model')).json];
    }
    const [x, y] = models;
    typia.assertEquals<ShopModel>(x);
    expect(x.fitProducts).toBe(momentumShopProducts().length);
    expect(x.tuning.decision).toBe('tuned');
    expect(x.settings.momentumExponent).toBeLessThan(1);
    expect(x.tuning.scores.chosen - x.tuning.scores.default).toBeGreaterThan(x.tuning.margin * x.tuning.standardError);
    expect(x.tuning.scores.popularity).toBeGreaterThan(0);
    expect(x.tuning.shoppers).toBe((8 * 20) / 2);
    expect(y).toEqual(x);
    const refit = logLines(service.child.output()).find((line) => line.event === 'refit' && line.shop === 'tuned' && line.tuning === 'tuned');
    expect(refit?.msg).toMatch(/^EASE refit of shop "tuned".*tuning on \d+ shoppers' newest purchases in [\d.]+ s: settings tuned/);
    for (const client of [a, b]) {
      const metrics = (await client.call('GET', '/metrics')).text;
      expect(metrics).toContain(`pairwise_model_setting{shop="tuned",setting="momentum_exponent"} ${x.settings.momentumExponent}`);
      expect(metrics).toContain('pairwise_model_tuned{shop="tuned"} 1');
      expect(metrics).toContain(`pairwise_model_validation_ndcg{shop="tuned",model="default"} ${x.tuning.scores.default}`);
      expect(metrics).toContain(`pairwise_model_validation_ndcg{shop="tuned",model="popularity"} ${x.tuning.scores.popularity}`);
    }
  }, 90_000);
});
