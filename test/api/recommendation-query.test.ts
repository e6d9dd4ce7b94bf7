import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMIT, MAX_CONTEXT_PRODUCTS, MAX_EXCLUDE, MAX_LIMIT, parseRecommendationQuery, queryKey } from '../../src/api/recommendation-query.js';
import { AppError } from '../../src/errors.js';
import { isStrategy, STRATEGIES } from '../../src/engine/strategy.js';

const BARE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Query strings built from the parameters the parser knows, with values that are often valid. */
const queryArb = (() => {
  const name = fc.constantFrom('productId', 'productIds', 'collectionId', 'customerId', 'sessionId', 'strategy', 'limit', 'exclude', 'other');
  const value = fc.oneof(
    fc.constantFrom(...STRATEGIES, '0', '1', '8', '24', '25', '-1', '1.5', '007', 'gid://shopify/Product/9', 'gid://shopify/Collection/3', '12', 'a,b,,c', ''),
    fc.integer({ min: -5, max: 1000 }).map(String),
    fc.string({ maxLength: 12 }),
    fc.array(fc.stringMatching(/^[a-z0-9]{1,4}$/), { maxLength: 120 }).map((ids) => ids.join(',')),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
})();

/** Arbitrary text, including unicode, lone surrogates and broken percent-encodings. */
const rawArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.array(fc.constantFrom('%', '%2', '%zz', '%E0%A4%A', '%FF', '%C0%AF', '&', '=', '+', 'limit', 'strategy', '\uD800', '#', '?'), { maxLength: 30 }).map((parts) => parts.join('')),
  queryArb,
);

describe('parseRecommendationQuery', () => {
  test('When given any string, then it never throws and answers ok or an AppError', () => {
    fc.assert(
      fc.property(rawArb, (raw) => {
        const parsed = parseRecommendationQuery(raw);
        if (!parsed.ok) {
          expect(parsed.error).toBeInstanceOf(AppError);
          expect(['invalid_limit', 'invalid_strategy', 'missing_context', 'invalid_query']).toContain(parsed.error.code);
          expect(parsed.error.status).toBe(400);
          expect(parsed.error.errors?.[0]?.pointer).toMatch(/^\/[A-Za-z]+$/);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('When a query is accepted, then its limit, strategy, ids and exclude list are in range', () => {
    fc.assert(
      fc.property(queryArb, (raw) => {
        const parsed = parseRecommendationQuery(raw);
        if (!parsed.ok) return;
        const { query } = parsed;
        expect(Number.isInteger(query.limit)).toBe(true);
        expect(query.limit).toBeGreaterThanOrEqual(1);
        expect(query.limit).toBeLessThanOrEqual(MAX_LIMIT);
        if (query.strategy !== undefined) expect(isStrategy(query.strategy)).toBe(true);
        expect(query.exclude.length).toBeLessThanOrEqual(MAX_EXCLUDE);
        for (const id of query.exclude) expect(id).toMatch(BARE);
        if (query.productId !== undefined) expect(query.productId).toMatch(BARE);
        if (query.collectionId !== undefined) expect(query.collectionId).toMatch(BARE);
        if (query.productIds !== undefined) {
          expect(query.productId).toBeUndefined();
          expect(query.productIds.length).toBeGreaterThanOrEqual(2);
          expect(query.productIds.length).toBeLessThanOrEqual(MAX_CONTEXT_PRODUCTS);
          expect([...query.productIds]).toEqual([...new Set(query.productIds)].sort());
          for (const id of query.productIds) expect(id).toMatch(BARE);
        }
        if (query.strategy === 'bought-together' || query.strategy === 'similar') expect(query.productId ?? query.productIds).toBeDefined();
        if (query.strategy === 'collection-popular') expect(query.collectionId).toBeDefined();
        if (query.strategy === 'personalized' || query.strategy === 'recently-viewed') expect(query.customerId ?? query.sessionId).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  test('When the query is empty, then the defaults apply', () => {
    expect(parseRecommendationQuery('')).toEqual({ ok: true, query: { limit: DEFAULT_LIMIT, exclude: [] } });
  });

  test('When ids are given as gids, then they are normalized to bare ids', () => {
    const parsed = parseRecommendationQuery(
      'productId=gid%3A%2F%2Fshopify%2FProduct%2F123&collectionId=gid://shopify/Collection/42&exclude=gid://shopify/Product/7, 8&limit=24&customerId=c1&sessionId=s1',
    );
    expect(parsed).toEqual({ ok: true, query: { limit: 24, exclude: ['7', '8'], productId: '123', collectionId: '42', customerId: 'c1', sessionId: 's1' } });
  });

  test.each([
    ['limit=0', 'invalid_limit', '/limit'],
    ['limit=25', 'invalid_limit', '/limit'],
    ['limit=1.5', 'invalid_limit', '/limit'],
    ['limit=-1', 'invalid_limit', '/limit'],
    ['limit=%2B5', 'invalid_limit', '/limit'],
    ['limit=1e1', 'invalid_limit', '/limit'],
    ['limit=%EF%BC%95', 'invalid_limit', '/limit'], // a full-width digit
    ['strategy=popular', 'invalid_strategy', '/strategy'],
    ['strategy=Trending', 'invalid_strategy', '/strategy'],
    ['strategy=bought-together', 'missing_context', '/productId'],
    ['strategy=similar&collectionId=1', 'missing_context', '/productId'],
    ['strategy=collection-popular&productId=1', 'missing_context', '/collectionId'],
    ['strategy=personalized', 'missing_context', '/customerId'],
    ['strategy=recently-viewed&productId=1', 'missing_context', '/customerId'],
    ['productId=gid://shopify/Collection/1', 'invalid_query', '/productId'],
    ['productId=a%20b', 'invalid_query', '/productId'],
    ['collectionId=gid://shopify/Product/1', 'invalid_query', '/collectionId'],
    [`customerId=${'x'.repeat(129)}`, 'invalid_query', '/customerId'],
    [`exclude=${Array.from({ length: 101 }, (_, i) => i).join(',')}`, 'invalid_query', '/exclude'],
    ['exclude=1,%C3%A9', 'invalid_query', '/exclude'],
    ['productIds=1,a%20b', 'invalid_query', '/productIds'],
    ['productIds=1,gid://shopify/Collection/2', 'invalid_query', '/productIds'],
    [`productIds=${Array.from({ length: 25 }, (_, i) => i).join(',')}`, 'invalid_query', '/productIds'],
    [`productId=x&productIds=${Array.from({ length: 24 }, (_, i) => i).join(',')}`, 'invalid_query', '/productIds'],
    ['strategy=similar&productIds=,', 'missing_context', '/productId'],
  ])('When the query is "%s", then it is rejected with %s at %s', (raw, code, pointer) => {
    const parsed = parseRecommendationQuery(raw);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe(code);
    expect(parsed.error.errors).toEqual([{ pointer, detail: parsed.error.detail }]);
  });

  test('When a cart is given in any order, with repeats, gids, blanks or beside productId, then the query holds its distinct bare ids sorted, one product as productId, and the cache key is the set\'s', () => {
    const id = fc.stringMatching(/^[a-z0-9]{1,3}$/);
    const cart = fc.uniqueArray(id, { minLength: 1, maxLength: MAX_CONTEXT_PRODUCTS }).chain((ids) => fc.tuple(fc.constant(ids), fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length })));
    fc.assert(
      fc.property(cart, fc.boolean(), fc.boolean(), ([ids, shuffled], gid, withProductId) => {
        const written = [...[...shuffled, shuffled[0]!].map((x) => (gid ? `gid://shopify/Product/${x}` : x)), ''];
        const raw = withProductId ? `productId=${encodeURIComponent(written[0]!)}&productIds=${encodeURIComponent(written.slice(1).join(','))}` : `productIds=${encodeURIComponent(written.join(','))}`;
        const parsed = parseRecommendationQuery(`strategy=bought-together&${raw}`);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const sorted = [...ids].sort();
        if (ids.length === 1) expect([parsed.query.productId, parsed.query.productIds]).toEqual([ids[0], undefined]);
        else expect([parsed.query.productId, parsed.query.productIds]).toEqual([undefined, sorted]);
        const plain = parseRecommendationQuery(ids.length === 1 ? `strategy=bought-together&productId=${ids[0]}` : `strategy=bought-together&productIds=${sorted.join(',')}`);
        expect(plain.ok && queryKey(plain.query)).toBe(queryKey(parsed.query));
      }),
      { numRuns: 300 },
    );
  });

  test('When two carts differ, then their cache keys differ', () => {
    const key = (raw: string) => {
      const parsed = parseRecommendationQuery(raw);
      if (!parsed.ok) throw parsed.error;
      return queryKey(parsed.query);
    };
    expect(key('productIds=1,2')).not.toBe(key('productIds=1,2,3'));
    expect(key('productIds=1,2')).not.toBe(key('productIds=12'));
    expect(key('productIds=1,23')).not.toBe(key('productIds=12,3'));
  });

  test('When exactly 100 ids are excluded, then the query is accepted', () => {
    const parsed = parseRecommendationQuery(`exclude=${Array.from({ length: 100 }, (_, i) => i).join(',')}`);
    expect(parsed.ok && parsed.query.exclude.length).toBe(100);
  });

  test('When filters and diversity are given, then the query holds the canonical filter and the cap, and the cache key tells them apart', () => {
    const parse = (raw: string) => {
      const result = parseRecommendationQuery(raw);
      if (!result.ok) throw result.error;
      return result.query;
    };
    const spaced = parse(`filters=${encodeURIComponent(' vendor:"Acme"  AND price<50 ')}&diversity=vendor:2`);
    expect(spaced.filter?.text).toBe('(vendor:Acme AND price < 50)');
    expect(spaced.diversity).toEqual({ attribute: 'vendor', max: 2 });
    const keys = ['', 'filters=vendor:Acme', 'filters=vendor:Globex', 'diversity=vendor:2', 'diversity=vendor:3', 'filters=vendor:Acme&diversity=vendor:2'].map((raw) => queryKey(parse(raw)));
    expect(new Set(keys).size).toBe(keys.length);
    expect(queryKey(parse('filters=vendor:Acme'))).toBe(queryKey(parse(`filters=${encodeURIComponent('(vendor:"Acme")')}`)));
  });

  test('When a parameter repeats, then its first non-empty value counts', () => {
    const parsed = parseRecommendationQuery('limit=&limit=3&limit=99&strategy=trending');
    expect(parsed).toEqual({ ok: true, query: { limit: 3, exclude: [], strategy: 'trending' } });
  });
});
