// Rules through the real server: the API (validation, bounds, CRUD), each consequence on a real
// answer (filter, hide, boost, bury, diversity, pins and what pins obey), each part of `when`, the
// validity window, composition, the answer cache (a change shows on the next request, another
// shop's cached answers stay), and rules surviving a restart.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { ids, newShop, postEvents, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

/** Products 1-8: vendors Acme (odd) and Bolt (even), 3 and 6 tagged clearance, all in collection c1; trending order 1 … 8. */
async function arrange(t: TestService): Promise<void> {
  await putProducts(
    t,
    ['1', '2', '3', '4', '5', '6', '7', '8'].map((id) =>
      wireProduct(id, { vendor: Number(id) % 2 === 1 ? 'Acme' : 'Bolt', tags: id === '3' || id === '6' ? ['clearance'] : [], price: `${Number(id) * 10}.00`, collections: ['c1'] }),
    ),
  );
  const events: Record<string, unknown>[] = [];
  for (let i = 1; i <= 8; i++) for (let k = 0; k < 2 * (9 - i); k++) events.push({ type: 'purchase', productId: String(i), sessionId: `buyer-${i}-${k}` });
  await postEvents(t, events);
}

async function admin(t: TestService, method: string, path: string, body?: unknown): Promise<Response> {
  return t.fetch(path, { method, key: t.shop.secretKey, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
}

async function putRule(t: TestService, id: string, rule: Record<string, unknown>): Promise<void> {
  const res = await admin(t, 'PUT', `/api/rules/${id}`, rule);
  if (res.status !== 200 && res.status !== 201) throw new Error(`PUT /api/rules/${id} ${res.status}: ${await res.text()}`);
}

const TRENDING = 'strategy=trending&limit=8';

function pinsOf(body: RecommendationBody): [string, unknown][] {
  return body.products.flatMap((p, i) => (p.ruleId === undefined ? [] : [[`${i + 1}:${ids({ ...body, products: [p] })[0]}`, p.ruleId] as [string, unknown]]));
}

describe('rules', () => {
  const started: TestService[] = [];
  let now = NOW;
  let t: TestService;
  beforeEach(async () => {
    now = NOW;
    t = await startTestService({ clock: () => now });
    started.push(t);
    await arrange(t);
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.cleanup();
  });

  test('When no rule exists, then trending answers 1 … 8 (the arrangement the other tests start from)', async () => {
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  test('When a rule is put, then it is listed, read, replaced and deleted; a public key is refused', async () => {
    const created = await admin(t, 'PUT', '/api/rules/summer', { when: { strategies: ['trending'] }, then: { hide: 'tag:clearance', pin: [{ productId: 'gid://shopify/Product/8', position: 1 }] } });
    expect(created.status).toBe(201);
    const stored = (await created.json()) as { rule: Record<string, unknown>; position: string };
    expect(stored.rule).toMatchObject({ id: 'summer', enabled: true, when: { strategies: ['trending'] }, then: { hide: 'tag:clearance', pin: [{ productId: 'gid://shopify/Product/8', position: 1 }] } });
    expect(typeof stored.position).toBe('string');
    await putRule(t, 'autumn', { enabled: false });
    const replaced = await admin(t, 'PUT', '/api/rules/summer', { id: 'summer', then: { hide: 'vendor:Bolt' } });
    expect(replaced.status).toBe(200);
    const list = (await (await admin(t, 'GET', '/api/rules')).json()) as { rules: { id: string; then: unknown }[] };
    expect(list.rules.map((r) => r.id)).toEqual(['autumn', 'summer']);
    expect(list.rules[1]!.then).toEqual({ hide: 'vendor:Bolt' });
    expect(await (await admin(t, 'GET', '/api/rules/summer')).json()).toMatchObject({ id: 'summer', then: { hide: 'vendor:Bolt' } });
    expect((await t.fetch('/api/rules')).status).toBe(403);
    expect((await t.fetch('/api/rules/summer', { method: 'PUT', body: '{}' })).status).toBe(403);
    expect((await admin(t, 'DELETE', '/api/rules/summer')).status).toBe(200);
    await expectProblem(await admin(t, 'GET', '/api/rules/summer'), 404, 'not_found');
    await expectProblem(await admin(t, 'DELETE', '/api/rules/summer'), 404, 'not_found');
  });

  test('When a rule is malformed, then it is a 400 invalid_rule naming the field, and for a filter the position and the expected token', async () => {
    const syntax = await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { then: { hide: 'tag:clearance AND (vendor:Acme' } }), 400, 'invalid_rule', '/then/hide');
    expect(syntax.errors![0]).toMatchObject({ position: 30, expected: "')'" });
    const unknown = await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { when: { context: 'colour:red' } }), 400, 'invalid_rule', '/when/context');
    expect(unknown.errors![0]).toMatchObject({ position: 0, expected: expect.stringMatching(/^an attribute/), detail: expect.stringContaining("unknown attribute 'colour'") });
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { then: { boost: [{ filter: 'vendor:Acme', factor: 0 }] } }), 400, 'invalid_rule', '/then/boost/0/factor');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { then: { boost: [{ filter: 'price >', factor: 2 }] } }), 400, 'invalid_rule', '/then/boost/0/filter');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { then: { pin: [{ productId: '1', position: 25 }] } }), 400, 'invalid_rule', '/then/pin/0/position');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { then: { diversity: { by: 'tag', max: 1 } } }), 400, 'invalid_rule', '/then/diversity/by');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { when: { strategies: ['bogus'] } }), 400, 'invalid_rule', '/when/strategies/0');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { from: 'tomorrow' }), 400, 'invalid_rule', '/from');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { from: '2025-06-02T00:00:00Z', until: '2025-06-01T00:00:00Z' }), 400, 'invalid_rule', '/until');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { id: 'r2' }), 400, 'invalid_rule', '/id');
    await expectProblem(await admin(t, 'PUT', '/api/rules/bad%20id', {}), 400, 'invalid_rule', '/id');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', '{"then":'), 400, 'invalid_json');
    await expectProblem(await admin(t, 'PUT', '/api/rules/r1', { then: { hide: 'x'.repeat(9000) } }), 413, 'payload_too_large');
    // Nothing was stored.
    expect(await (await admin(t, 'GET', '/api/rules')).json()).toEqual({ rules: [] });
  });

  test('When a shop holds 100 rules, then a new one is a 409 too_many_rules and replacing one still works', async () => {
    for (let i = 0; i < 100; i++) await putRule(t, `r${String(i).padStart(3, '0')}`, { enabled: false });
    const res = await admin(t, 'PUT', '/api/rules/one-more', {});
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'too_many_rules' });
    expect((await admin(t, 'PUT', '/api/rules/r000', { enabled: true, then: { hide: 'vendor:Bolt' } })).status).toBe(200);
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '3', '5', '7']);
  });

  test('When rules filter, hide, boost and bury, then the answer keeps, drops and re-ranks those products (backfill filtered too)', async () => {
    await putRule(t, 'keep-acme', { then: { filter: 'vendor:Acme' } });
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '3', '5', '7']);
    await putRule(t, 'keep-acme', { then: { hide: 'tag:clearance' } });
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '2', '4', '5', '7', '8']);
    await putRule(t, 'keep-acme', { then: { boost: [{ filter: 'price >= 70', factor: 100 }] } });
    expect(ids(await recommendations(t, TRENDING))).toEqual(['7', '8', '1', '2', '3', '4', '5', '6']);
    await putRule(t, 'keep-acme', { then: { boost: [{ filter: 'productType:none OR vendor:Acme', factor: 0.01 }] } });
    expect(ids(await recommendations(t, TRENDING))).toEqual(['2', '4', '6', '8', '1', '3', '5', '7']);
    // A boost reaches past the limit: product 8 enters a 3-item answer.
    await putRule(t, 'keep-acme', { then: { boost: [{ filter: 'price >= 80', factor: 100 }] } });
    expect(ids(await recommendations(t, 'strategy=trending&limit=3'))).toEqual(['8', '1', '2']);
  });

  test('When a rule diversifies by vendor, then at most `max` items share one', async () => {
    await putRule(t, 'mix', { then: { diversity: { by: 'vendor', max: 2 } } });
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '2', '3', '4']);
    expect(ids(await recommendations(t, 'strategy=trending&limit=3'))).toEqual(['1', '2', '3']);
  });

  test('When a rule pins products, then they stand at their positions with the answer strategy and ruleId, once, and obey exclude, availability and dismissals', async () => {
    await putRule(t, 'campaign', { then: { pin: [{ productId: '8', position: 1 }, { productId: '6', position: 3 }] } });
    let body = await recommendations(t, TRENDING);
    expect(ids(body)).toEqual(['8', '1', '6', '2', '3', '4', '5', '7']);
    expect(body.products[0]).toMatchObject({ strategy: 'trending', ruleId: 'campaign' });
    expect(body.products[1]!.ruleId).toBeUndefined();
    expect(pinsOf(body)).toEqual([['1:8', 'campaign'], ['3:6', 'campaign']]);
    // Excluded: not pinned, and the answer is not cut short.
    body = await recommendations(t, `${TRENDING}&exclude=8`);
    expect(ids(body)).toEqual(['1', '2', '6', '3', '4', '5', '7']);
    // Dismissed by this shopper.
    await postEvents(t, [{ type: 'dismiss', productId: '6', sessionId: 'shopper' }]);
    expect(ids(await recommendations(t, `${TRENDING}&sessionId=shopper`))).toEqual(['8', '1', '2', '3', '4', '5', '7']);
    // Unavailable.
    await putProducts(t, [wireProduct('8', { vendor: 'Bolt', price: '80.00', available: false })]);
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '2', '6', '3', '4', '5', '7']);
    // A pin past the answer's limit is not placed.
    expect(ids(await recommendations(t, 'strategy=trending&limit=2'))).toEqual(['1', '2']);
    // Outside the request's own filter: not pinned (6 is Bolt). Within it, pinned at 3, or last of a shorter list.
    expect(ids(await recommendations(t, `${TRENDING}&filters=${encodeURIComponent('vendor:Acme')}`))).toEqual(['1', '3', '5', '7']);
    expect(ids(await recommendations(t, `${TRENDING}&filters=${encodeURIComponent('vendor:Bolt')}`))).toEqual(['2', '4', '6']);
    expect(ids(await recommendations(t, `${TRENDING}&filters=${encodeURIComponent('NOT tag:none')}`))).toEqual(['1', '2', '6', '3', '4', '5', '7']);
  });

  test('When several rules match, then they compose in id order: filters and hides all apply, the first pin of a position wins', async () => {
    await putRule(t, 'b-hide', { then: { hide: 'tag:clearance', pin: [{ productId: '7', position: 1 }] } });
    await putRule(t, 'a-acme', { then: { filter: 'vendor:Acme', pin: [{ productId: '5', position: 1 }] } });
    const body = await recommendations(t, TRENDING);
    expect(ids(body)).toEqual(['5', '7', '1']);
    expect(pinsOf(body)).toEqual([['1:5', 'a-acme'], ['2:7', 'b-hide']]);
  });

  test('When a rule names strategies, widgets, collections or a context product, then only matching requests change', async () => {
    await putRule(t, 'only-similar', { when: { strategies: ['similar'] }, then: { hide: 'vendor:Bolt' } });
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(ids(await recommendations(t, 'strategy=similar&productId=1&limit=8'))).not.toContain('2');

    await putRule(t, 'only-similar', { when: { widgetIds: ['home'] }, then: { hide: 'vendor:Bolt' } });
    expect(ids(await recommendations(t, TRENDING))).toContain('2');
    expect(ids(await recommendations(t, `${TRENDING}&widgetId=pdp`))).toContain('2');
    expect(ids(await recommendations(t, `${TRENDING}&widgetId=home`))).toEqual(['1', '3', '5', '7']);

    await putRule(t, 'only-similar', { when: { collectionIds: ['gid://shopify/Collection/c2'] }, then: { hide: 'vendor:Bolt' } });
    expect(ids(await recommendations(t, 'strategy=collection-popular&collectionId=c1&limit=8'))).toContain('2');
    expect(ids(await recommendations(t, 'strategy=collection-popular&collectionId=c2&limit=8'))).not.toContain('2');

    // Auto strategy from a product (bought-together): the context product's vendor decides.
    await putRule(t, 'only-similar', { when: { context: 'vendor:Bolt' }, then: { filter: 'vendor:Bolt' } });
    expect(ids(await recommendations(t, 'productId=1&limit=8'))).toContain('3');
    const fromBolt = ids(await recommendations(t, 'productId=2&limit=8'));
    expect(fromBolt.length).toBeGreaterThan(0);
    expect(fromBolt.every((id) => Number(id) % 2 === 0)).toBe(true);
    expect(ids(await recommendations(t, TRENDING))).toContain('3'); // no context product: no match
  });

  test('When a rule starts in the future, then it does nothing until then and applies from that instant, though an answer was cached; it ends at until', async () => {
    await putRule(t, 'later', { from: new Date(NOW + 5_000).toISOString(), until: new Date(NOW + 9_000).toISOString(), then: { hide: 'vendor:Bolt' } });
    expect(ids(await recommendations(t, TRENDING))).toContain('2');
    now = NOW + 4_999;
    expect(ids(await recommendations(t, TRENDING))).toContain('2');
    now = NOW + 5_000;
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '3', '5', '7']);
    now = NOW + 8_999;
    expect(ids(await recommendations(t, TRENDING))).toEqual(['1', '3', '5', '7']);
    now = NOW + 9_000;
    expect(ids(await recommendations(t, TRENDING))).toContain('2');
    // Disabled: never in force.
    now = NOW + 6_000;
    await putRule(t, 'later', { enabled: false, from: new Date(NOW + 5_000).toISOString(), then: { hide: 'vendor:Bolt' } });
    expect(ids(await recommendations(t, TRENDING))).toContain('2');
  });

  test('When an answer is computed after a rule window’s edge, then it is not served past the end of its cache window (every process computes the next window’s answer at its start)', async () => {
    await putRule(t, 'later', { from: new Date(NOW + 5_000).toISOString(), then: { hide: 'tag:clearance' } });
    const hits = async () => Number(/^pairwise_answer_cache_hits_total (\d+)$/m.exec(await (await t.fetch('/metrics', { key: t.shop.secretKey })).text())![1]);
    now = NOW + 5_000;
    await recommendations(t, TRENDING); // computed at the edge, cached
    now = NOW + 29_999;
    const before = await hits();
    await recommendations(t, TRENDING);
    expect(await hits()).toBe(before + 1); // still its window: served from the cache
    now = NOW + 30_000; // the next 30 s window of the answer cache
    await recommendations(t, TRENDING);
    expect(await hits()).toBe(before + 1); // computed again, at the window's start
  });

  test('When the service restarts, from its snapshot or from the whole log, then its rules still apply and are listed', async () => {
    await putRule(t, 'campaign', { then: { hide: 'tag:clearance', pin: [{ productId: '8', position: 1 }] } });
    await putRule(t, 'gone', { then: { hide: 'vendor:Acme' } });
    expect((await admin(t, 'DELETE', '/api/rules/gone')).status).toBe(200);
    const before = await recommendations(t, TRENDING);
    expect(ids(before)).toEqual(['8', '1', '2', '4', '5', '7']);
    await t.stop();
    // Rules are not in the snapshot: the rules table brings them back.
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => now });
    started.push(again);
    expect(again.service.replayed).toMatchObject({ snapshots: 1 });
    expect(await recommendations(again, TRENDING)).toEqual(before);
    const list = (await (await again.fetch('/api/rules', { key: again.shop.secretKey })).json()) as { rules: { id: string }[] };
    expect(list.rules.map((r) => r.id)).toEqual(['campaign']);
    await again.stop();
    // Another engine config makes the snapshot unusable: the whole log is replayed, rule changes included.
    const fromLog = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => now, env: { PAIRWISE_TRENDING_HALF_LIFE_HOURS: '47' } });
    started.push(fromLog);
    expect(fromLog.service.replayed).toMatchObject({ snapshots: 0 });
    expect(ids(await recommendations(fromLog, TRENDING))).toEqual(ids(before));
    expect(((await (await fromLog.fetch('/api/rules', { key: fromLog.shop.secretKey })).json()) as { rules: { id: string }[] }).rules.map((r) => r.id)).toEqual(['campaign']);
  });
});

describe('rules and the answer cache', () => {
  let t: TestService;
  const b = newShop('shop-b');
  afterEach(async () => {
    await t.cleanup();
  });

  async function cacheHits(): Promise<number> {
    const text = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
    return Number(/^pairwise_answer_cache_hits_total (\d+)$/m.exec(text)![1]);
  }

  test("When a rule changes, then the next answer of a strategy it matches differs, and answers it cannot change (another strategy, another shop) stay cached", async () => {
    t = await startTestService({ clock: () => NOW });
    await t.service.shops.ensureShop(b.shopId);
    await t.service.shops.addKey(b.shopId, b.publicKey);
    await t.service.shops.addKey(b.shopId, b.secretKey);
    await arrange(t);
    const res = await t.fetch('/api/products', { method: 'PUT', key: b.secretKey, body: JSON.stringify({ products: [wireProduct('1'), wireProduct('2')] }) });
    expect(res.status).toBe(200);
    const bQuery = 'strategy=trending';
    const other = 'strategy=collection-popular&collectionId=c1&limit=8';
    const before = await recommendations(t, TRENDING);
    const otherBefore = await recommendations(t, other);
    const bBefore = await recommendations(t, bQuery, b.publicKey);

    await putRule(t, 'r', { when: { strategies: ['trending'] }, then: { hide: 'vendor:Bolt' } });
    const hits = await cacheHits();
    const after = await recommendations(t, TRENDING);
    expect(ids(after)).toEqual(['1', '3', '5', '7']);
    expect(ids(after)).not.toEqual(ids(before));
    expect(await cacheHits()).toBe(hits); // computed again, not served from the cache
    expect(await recommendations(t, other)).toEqual(otherBefore);
    expect(await recommendations(t, bQuery, b.publicKey)).toEqual(bBefore);
    expect(await cacheHits()).toBe(hits + 2);
    // Removed: the next answer is the one before.
    expect((await admin(t, 'DELETE', '/api/rules/r')).status).toBe(200);
    expect(await recommendations(t, TRENDING)).toEqual(before);
  });
});
