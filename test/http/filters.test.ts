// filters= and diversity= on GET /api/recommendations and WebSocket subscriptions, on the real server:
// each attribute and operator, relative filters, diversity, the 400s, custom attributes on the
// catalog, and answers kept apart in the answer cache.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ids, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { expectProblem } from '../support/problem.js';
import { StreamClient } from '../ws/stream-client.js';

/**
 * Eight products and no events: trending answers in product id order, so each filter's answer is
 * the catalog's matching available products in id order (6 is unavailable: never returned).
 */
const CATALOG = [
  wireProduct('1', { vendor: 'Acme', productType: 'Shirt', tags: ['summer'], collections: ['summer'], price: '10', compareAtPrice: '20', attributes: { material: 'wool', rating: 4 } }),
  wireProduct('2', { vendor: 'Acme', productType: 'Hat', tags: ['clearance'], collections: ['beach'], price: '40', attributes: { material: 'cotton', rating: 2 } }),
  wireProduct('3', { vendor: 'Globex', productType: 'Shirt', tags: ['new'], collections: ['summer'], price: '60', compareAtPrice: '50', attributes: { rating: 5 } }),
  wireProduct('4', { vendor: 'Globex', productType: 'Hat', tags: [], collections: ['beach'], price: 25, compareAtPrice: 30 }),
  wireProduct('5', { vendor: 'Initech', productType: 'Shirt', tags: ['summer', 'clearance'], collections: ['winter'], price: '100' }),
  wireProduct('6', { vendor: 'Acme', productType: 'Shirt', tags: [], collections: ['winter'], price: '5', available: false }),
  wireProduct('7', { vendor: 'Acme', productType: 'Shirt', tags: [], collections: ['summer'], price: null }),
  wireProduct('8', { vendor: 'Globex', productType: 'Hat', tags: [], collections: ['winter'], price: '20.00' }),
];

async function filtered(t: TestService, filter: string, extra = 'strategy=trending&limit=24'): Promise<string[]> {
  return ids(await recommendations(t, `${extra}&filters=${encodeURIComponent(filter)}`));
}

describe('filters', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, CATALOG);
  });
  afterAll(() => t.cleanup());

  test('When a filter names each attribute, then the answer holds exactly the available products it selects', async () => {
    const cases: [string, string[]][] = [
      ['vendor:"Acme"', ['1', '2', '7']],
      ['vendor:Globex', ['3', '4', '8']],
      ['productType:Hat', ['2', '4', '8']],
      ['tag:clearance', ['2', '5']],
      ['collection:beach', ['2', '4']],
      ['onSale:true', ['1', '4']],
      ['onSale:false', ['2', '3', '5', '7', '8']],
      ['available:true', ['1', '2', '3', '4', '5', '7', '8']],
      ['available:false', []],
      ['material:wool', ['1']],
      ['rating >= 4', ['1', '3']],
      ['rating:2', ['2']],
    ];
    for (const [filter, expected] of cases) expect(await filtered(t, filter), filter).toEqual(expected);
  });

  test('When a numeric attribute is compared with each operator and a range, then products without a number never match', async () => {
    const cases: [string, string[]][] = [
      ['price < 25', ['1', '8']],
      ['price <= 25', ['1', '4', '8']],
      ['price > 40', ['3', '5']],
      ['price >= 40', ['2', '3', '5']],
      ['price = 40', ['2']],
      ['price:20', ['8']],
      ['price != 40', ['1', '3', '4', '5', '8']],
      ['price:20..40', ['2', '4', '8']],
      ['compareAtPrice > 25', ['3', '4']],
      ['NOT price:20..40', ['1', '3', '5', '7']],
    ];
    for (const [filter, expected] of cases) expect(await filtered(t, filter), filter).toEqual(expected);
  });

  test('When terms are combined with AND, OR, NOT and groups, then the answer follows the expression', async () => {
    expect(await filtered(t, 'vendor:"Acme" AND price < 50 AND NOT tag:clearance AND (collection:summer OR collection:beach)')).toEqual(['1']);
    expect(await filtered(t, 'vendor:Acme OR vendor:Initech AND price > 50')).toEqual(['1', '2', '5', '7']);
    expect(await filtered(t, '(vendor:Acme OR vendor:Initech) AND price > 30')).toEqual(['2', '5']);
  });

  test('When a filter is relative to the context product, then it compares each candidate with that product, backfill included', async () => {
    const sorted = (list: string[]) => [...list].sort();
    expect(sorted(await filtered(t, 'same:vendor', 'productId=1&limit=24'))).toEqual(['2', '7']);
    expect(sorted(await filtered(t, 'different:productType', 'productId=1&limit=24'))).toEqual(['2', '4', '8']);
    expect(sorted(await filtered(t, 'price:0.5x..2x', 'productId=4&limit=24'))).toEqual(['2', '8']);
    expect(sorted(await filtered(t, 'same:collection AND different:vendor', 'productId=1&strategy=similar&limit=24'))).toEqual(['3']);
    // Without a context product, relative terms select nothing.
    const none = await recommendations(t, `strategy=trending&filters=${encodeURIComponent('same:vendor')}`);
    expect(none.products).toEqual([]);
    expect(none.meta.count).toBe(0);
  });

  test('When a filter leaves fewer products than the limit, then the answer is shorter and meta.count says so', async () => {
    const body = await recommendations(t, `strategy=trending&limit=8&filters=${encodeURIComponent('tag:clearance')}`);
    expect(ids(body)).toEqual(['2', '5']);
    expect(body.meta.count).toBe(2);
  });

  test('When diversity caps a vendor, then at most that many items of each vendor come back, in the ranking order', async () => {
    expect(ids(await recommendations(t, 'strategy=trending&limit=24&diversity=vendor:1'))).toEqual(['1', '3', '5']);
    expect(ids(await recommendations(t, 'strategy=trending&limit=24&diversity=vendor:2'))).toEqual(['1', '2', '3', '4', '5']);
    expect(ids(await recommendations(t, 'strategy=trending&limit=24&diversity=material:1'))).toEqual(['1', '2', '3', '4', '5', '7', '8']);
    expect(ids(await recommendations(t, `strategy=trending&limit=24&diversity=productType:1&filters=${encodeURIComponent('price > 20')}`))).toEqual(['2', '3']);
  });

  test('When the same query comes with and without a filter or diversity, then each answer is its own (the answer cache keys on both)', async () => {
    const plain = ids(await recommendations(t, 'strategy=trending&limit=24'));
    expect(plain).toEqual(['1', '2', '3', '4', '5', '7', '8']);
    expect(await filtered(t, 'vendor:Globex')).toEqual(['3', '4', '8']);
    expect(ids(await recommendations(t, 'strategy=trending&limit=24&diversity=vendor:1'))).toEqual(['1', '3', '5']);
    expect(ids(await recommendations(t, 'strategy=trending&limit=24'))).toEqual(plain);
    // Written differently, the same filter is one canonical filter.
    expect(await filtered(t, '  vendor:"Globex"  ')).toEqual(['3', '4', '8']);
  });

  test('When a filter is malformed, then the answer is a 400 invalid_filter naming the position and the expected token', async () => {
    const cases: [string, number, string][] = [
      ['vendor:"Acme', 12, 'a closing'],
      ['(vendor:Acme', 12, "')'"],
      ['price < cheap', 8, 'a number'],
      ['vendor:Acme AND', 15, 'an attribute name'],
      ['color:red', 0, 'an attribute'],
      ['vendor < 5', 0, 'a numeric attribute'],
      ['onSale:maybe', 0, 'true or false'],
      ['tag:a OR '.repeat(60) + 'tag:a', 512, 'at most 512 characters'],
    ];
    for (const [filter, position, expected] of cases) {
      const body = await expectProblem(await t.fetch(`/api/recommendations?filters=${encodeURIComponent(filter)}`), 400, 'invalid_filter', '/filters');
      const error = body.errors![0] as unknown as { position: number; expected: string; detail: string };
      expect(error.position, filter).toBe(position);
      expect(error.expected, filter).toContain(expected);
      expect(body.detail).toContain(`position ${position}`);
    }
  });

  test('When diversity is malformed or names an attribute it cannot cap, then the answer is a 400 invalid_diversity', async () => {
    for (const diversity of ['vendor', 'vendor:0', 'vendor:25', 'tag:2', 'color:1', ':2']) {
      await expectProblem(await t.fetch(`/api/recommendations?diversity=${encodeURIComponent(diversity)}`), 400, 'invalid_diversity', '/diversity');
    }
  });

  test('When a WebSocket subscription carries filters and diversity, then its list is the GET answer; a bad filter is an error frame', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey, { binary: false });
    try {
      const reply = await client.request({ op: 'subscribe', ref: 'f1', query: { strategy: 'trending', limit: 24, filters: 'productType:Hat', diversity: 'vendor:1' } });
      expect(reply.op).toBe('recommendations');
      expect((reply.products as { id: string }[]).map((p) => p.id.replace(/^gid:\/\/shopify\/Product\//, ''))).toEqual(['2', '4']);
      const bad = await client.request({ op: 'subscribe', ref: 'f2', query: { filters: 'vendor:' } });
      expect(bad).toMatchObject({ op: 'error', ref: 'f2', error: { code: 'invalid_filter' } });
    } finally {
      client.close();
    }
  });
});

describe('after a restart', () => {
  test('When the service restarts on its data, then custom attributes are still there and filters select the same products', async () => {
    const first = await startTestService();
    await putProducts(first, CATALOG);
    const before = await filtered(first, 'material:wool OR rating >= 5');
    expect(before).toEqual(['1', '3']);
    await first.stop();
    const second = await startTestService({ dataDir: first.dataDir, shop: first.shop });
    try {
      expect(await filtered(second, 'material:wool OR rating >= 5')).toEqual(before);
    } finally {
      await second.cleanup();
      await first.cleanup();
    }
  });
});

describe('the OpenAPI document', () => {
  test('When it is read, then GET /api/recommendations lists filters and diversity with their 400s, and products their attributes', async () => {
    const t = await startTestService();
    try {
      const doc = (await (await t.fetch('/api/openapi.json', { key: null })).json()) as {
        paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>>;
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      };
      const get = doc.paths['/api/recommendations']!.get!;
      expect(get.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['filters', 'diversity']));
      expect(JSON.stringify(get.responses['400'])).toContain('invalid_filter');
      expect(JSON.stringify(get.responses['400'])).toContain('invalid_diversity');
      expect(doc.components.schemas.WireProduct!.properties).toHaveProperty('attributes');
      expect(doc.components.schemas.CatalogProduct!.properties).toHaveProperty('attributes');
    } finally {
      await t.cleanup();
    }
  });
});

describe('custom attributes on the catalog', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, CATALOG.slice(0, 3));
  });
  afterAll(() => t.cleanup());

  test('When a product is read back, then its custom attributes are there', async () => {
    const res = await t.fetch('/api/products/1', { key: t.shop.secretKey });
    expect(((await res.json()) as { attributes: unknown }).attributes).toEqual({ material: 'wool', rating: 4 });
  });

  test('When custom attributes break a bound, then the upsert is a 400 invalid_product naming each and nothing is stored', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`a${i}`, i]));
    const cases: [Record<string, unknown>, string][] = [
      [{ vendor: 'x' }, '/products/0/attributes/vendor'],
      [{ '1bad': 'x' }, '/products/0/attributes/1bad'],
      [tooMany, '/products/0/attributes'],
      [{ material: 'x'.repeat(256) }, '/products/0/attributes/material'],
      [{ material: true }, '/products/0/attributes/material'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products: [wireProduct('9', { attributes })] }) });
      await expectProblem(res, 400, 'invalid_product', pointer);
    }
    expect((await t.fetch('/api/products/9', { key: t.shop.secretKey })).status).toBe(404);
  });

  test('When a product\'s attributes change, then the next answer follows; a custom attribute no product has any more is unknown', async () => {
    expect(await filtered(t, 'material:wool')).toEqual(['1']);
    await putProducts(t, [wireProduct('3', { attributes: { material: 'wool' } })]);
    expect(await filtered(t, 'material:wool')).toEqual(['1', '3']);
    await putProducts(t, [wireProduct('1', {}), wireProduct('2', {}), wireProduct('3', {})]);
    const body = await expectProblem(await t.fetch(`/api/recommendations?filters=${encodeURIComponent('material:wool')}`), 400, 'invalid_filter', '/filters');
    expect(body.detail).toContain("unknown attribute 'material'");
  });

  test('When the attribute a live subscription filters on leaves the catalog, then the subscription keeps its last list and the service goes on', async () => {
    await putProducts(t, [wireProduct('1', { attributes: { material: 'wool' } }), wireProduct('2', { attributes: { material: 'silk' } })]);
    const client = await StreamClient.open(t.url, t.shop.publicKey, { binary: false });
    try {
      const reply = await client.request({ op: 'subscribe', ref: 's1', query: { strategy: 'trending', filters: 'material:wool' } });
      expect((reply.products as unknown[]).length).toBe(1);
      await putProducts(t, [wireProduct('1', {}), wireProduct('2', {})]);
      // The subscription's recompute runs within a second of the catalog change: it must not throw.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await client.request({ op: 'subscribe', ref: 's2', query: { strategy: 'trending', filters: 'material:wool', limit: 3 } })).toMatchObject({ op: 'error', error: { code: 'invalid_filter' } });
      expect((await recommendations(t, 'strategy=trending')).meta.count).toBe(3);
    } finally {
      client.close();
    }
  });
});
