// RecommendationParams (the type the OpenAPI document's query parameters are generated from) and
// parseRecommendationQuery (the hand-written parser that runs per request) accept the same values,
// and the documented batch envelope (WireBatch) is the one parseBatchEnvelope takes.
import fc from 'fast-check';
import typia from 'typia';
import { describe, expect, test } from 'vitest';
import { MAX_BATCH_EVENTS, parseBatchEnvelope, type WireBatch } from '../../src/api/event.js';
import { DEFAULT_LIMIT, MAX_LIMIT, parseRecommendationQuery, type RecommendationParams } from '../../src/api/recommendation-query.js';
import { STRATEGIES } from '../../src/engine/strategy.js';
import { SCHEMAS } from '../../src/http/openapi/schemas.js';

const isParams = typia.createIs<RecommendationParams>();

const ids = (resource: string) =>
  fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,70}$/),
    fc.stringMatching(/^[A-Za-z0-9-]{0,34}$/).map((platform) => `gid://${platform}/${resource}/42`),
    fc.constantFrom(`gid://shopify/${resource === 'Product' ? 'Collection' : 'Product'}/1`, '-1', 'a b', 'x/y', 'é', `gid://shopify/${resource}/`),
  );
const text = (max: number) => fc.oneof(fc.string({ maxLength: max - 2 }), fc.string({ minLength: max - 2, maxLength: max + 2 }));

/** Parameters that are often valid, often not, in every way the type can tell (context rules aside: they are the parser's). */
const paramsArb = fc.record(
  {
    strategy: fc.oneof(fc.constantFrom(...STRATEGIES), fc.constantFrom('Trending', 'popular', 'trending ')),
    productId: ids('Product'),
    productIds: fc.uniqueArray(ids('Product'), { minLength: 1, maxLength: 26 }).map((list) => list.join(',')),
    collectionId: ids('Collection'),
    customerId: text(128),
    customerToken: text(400),
    sessionId: text(128),
    limit: fc.oneof(fc.integer({ min: -3, max: 30 }).map(String), fc.constantFrom('007', '1.5', 'ten', '1e1', '+3', ' 4')),
  },
  { requiredKeys: [] },
);

/** The parameters as the type sees them: empty values are absent (the parser skips them), limit a number when it is digits. */
function typed(params: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === '') continue;
    out[name] = name === 'limit' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

describe('RecommendationParams and parseRecommendationQuery', () => {
  test('When parameters are parsed, then the parser takes them exactly when the type does (context rules aside)', () => {
    fc.assert(
      fc.property(paramsArb, (params) => {
        const outcome = parseRecommendationQuery(new URLSearchParams(params as Record<string, string>).toString());
        if (!outcome.ok && outcome.error.code === 'missing_context') return;
        // productId and productIds are one context of at most 24: a context rule, as missing_context is.
        if (params.productId !== undefined && params.productIds !== undefined) return;
        expect(outcome.ok, JSON.stringify(params)).toBe(isParams(typed(params as Record<string, string>)));
      }),
      { numRuns: 2000 },
    );
  });

  test("When the generated schema is read, then limit's bounds and default and the strategies are the parser's", () => {
    const schema = SCHEMAS.components.schemas!.RecommendationParams as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.limit).toMatchObject({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    const strategies = (schema.properties.strategy!.oneOf as { const: string }[]).map((s) => s.const);
    expect(strategies.sort()).toEqual([...STRATEGIES].sort());
  });
});

describe('WireBatch and parseBatchEnvelope', () => {
  test('When batches of valid events of every size are checked, then the envelope is taken exactly when the type takes it', () => {
    const event = { type: 'view', productId: '1', sessionId: 's' };
    for (const size of [0, 1, 2, MAX_BATCH_EVENTS - 1, MAX_BATCH_EVENTS, MAX_BATCH_EVENTS + 1]) {
      const batch = { events: Array.from({ length: size }, () => event) };
      expect(parseBatchEnvelope(batch).ok, `${size} events`).toBe(typia.is<WireBatch>(batch));
    }
    for (const notBatch of [[], null, 'x', {}, { events: {} }]) expect(parseBatchEnvelope(notBatch).ok).toBe(typia.is<WireBatch>(notBatch));
  });
});
