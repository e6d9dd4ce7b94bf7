// Rule application (rule-book → rule-plan → the pick list → apply-rules) against the reference
// (test/reference/rules.ts) on random catalogs, rules, candidate lists and requests.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DenseSet } from '../../../src/engine/dense-set.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/engine/engine-config.js';
import { PickList } from '../../../src/engine/pick-list.js';
import type { Product } from '../../../src/engine/product.js';
import { finishAnswer } from '../../../src/engine/rules/apply-rules.js';
import { planRules } from '../../../src/engine/rules/rule-plan.js';
import type { Rule } from '../../../src/engine/rules/rule.js';
import { ShopEngine } from '../../../src/engine/shop-engine.js';
import { STRATEGIES, type Strategy } from '../../../src/engine/strategy.js';
import { UNSHAPED } from '../../../src/engine/answer-shaping.js';
import { referenceRuleAnswer, type ReferenceCandidate, type ReferenceItem, type ReferenceRequest } from '../../reference/rules.js';
import { product as catalogProduct } from '../fixtures.js';

const IDS = Array.from({ length: 14 }, (_, i) => String(i + 1));
const VENDORS = ['Acme', 'Bolt', 'Core'];
const FILTERS = [
  'vendor:Acme',
  'NOT vendor:Bolt',
  'tag:clearance',
  'price < 20',
  'price:10..40',
  'same:vendor',
  'different:productType',
  'price:0.5x..2x',
  'material:wool',
  'tag:new OR (vendor:Core AND available:true)',
  'onSale:true',
];
const T0 = 1_000_000;

const product = (id: string) =>
  fc.record({
    vendor: fc.constantFrom(null, ...VENDORS),
    productType: fc.constantFrom(null, 'Shirt', 'Hat'),
    tags: fc.uniqueArray(fc.constantFrom('clearance', 'new'), { maxLength: 2 }),
    price: fc.constantFrom(null, '5', '10', '15', '25', '40', '60'),
    compareAtPrice: fc.constantFrom(null, '20', '50'),
    available: fc.boolean(),
    material: fc.option(fc.constantFrom('wool', 'cotton'), { nil: undefined }),
  }).map(({ material, ...fields }): Product => catalogProduct(id, { ...fields, collections: ['c1'], ...(material === undefined ? {} : { attributes: { material } }) }));

const catalogArb = fc.tuple(...IDS.map(product)).chain((all) => fc.subarray(all, { minLength: 4 }));

/** `arb` one time in `1 + absent`, else undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>, absent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: 1 });
}

const ruleArb = (id: string): fc.Arbitrary<Rule> =>
  fc
    .record({
      enabled: fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, { arbitrary: fc.constant(false), weight: 1 }),
      from: sometimes(fc.constantFrom(T0 - 10, T0, T0 + 10), 3),
      until: sometimes(fc.constantFrom(T0 + 1, T0 + 20), 3),
      strategies: sometimes(fc.uniqueArray(fc.constantFrom(...STRATEGIES), { minLength: 1, maxLength: 3 }), 3),
      widgetIds: sometimes(fc.uniqueArray(fc.constantFrom('home', 'pdp'), { minLength: 1 }), 3),
      collectionIds: sometimes(fc.constant(['c1']), 3),
      context: sometimes(fc.constantFrom(...FILTERS), 3),
      filter: sometimes(fc.constantFrom(...FILTERS), 2),
      hide: sometimes(fc.constantFrom(...FILTERS), 2),
      boost: sometimes(fc.array(fc.record({ filter: fc.constantFrom(...FILTERS), factor: fc.constantFrom(0.1, 0.5, 2, 10) }), { maxLength: 2 }), 1),
      diversity: sometimes(fc.record({ by: fc.constantFrom('vendor', 'productType', 'material'), max: fc.integer({ min: 1, max: 3 }) }), 1),
      pin: sometimes(fc.array(fc.record({ productId: fc.constantFrom(...IDS, 'missing'), position: fc.integer({ min: 1, max: 5 }) }), { maxLength: 4 }), 1),
    })
    .map((r): Rule => ({
      id,
      enabled: r.enabled,
      ...(r.from === undefined ? {} : { from: r.from }),
      ...(r.until === undefined ? {} : { until: r.until }),
      when: {
        ...(r.strategies === undefined ? {} : { strategies: r.strategies }),
        ...(r.widgetIds === undefined ? {} : { widgetIds: r.widgetIds }),
        ...(r.collectionIds === undefined ? {} : { collectionIds: r.collectionIds }),
        ...(r.context === undefined ? {} : { context: r.context }),
      },
      then: {
        ...(r.filter === undefined ? {} : { filter: r.filter }),
        ...(r.hide === undefined ? {} : { hide: r.hide }),
        ...(r.boost === undefined ? {} : { boost: r.boost }),
        ...(r.diversity === undefined ? {} : { diversity: r.diversity }),
        ...(r.pin === undefined ? {} : { pin: r.pin }),
      },
      updatedAt: 0,
    }));

const rulesArb = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 4 }).chain((ids) => fc.tuple(...ids.map(ruleArb)));

/** Candidates in chain order: a run per strategy, scores descending within it (as producers offer them), repeats allowed. */
const candidatesArb = fc
  .array(
    fc.record({
      strategy: fc.constantFrom<Strategy>('bought-together', 'similar', 'trending'),
      items: fc.array(fc.record({ id: fc.constantFrom(...IDS), score: fc.double({ min: 0.01, max: 100, noNaN: true }) }), { maxLength: 12 }),
    }),
    { maxLength: 3 },
  )
  .map((runs) => runs.flatMap((run) => [...run.items].sort((a, b) => b.score - a.score).map((item): ReferenceCandidate => ({ id: item.id, strategy: run.strategy, score: item.score }))));

const requestArb = fc.record({
  strategy: fc.constantFrom(...STRATEGIES),
  limit: fc.integer({ min: 1, max: 12 }),
  widgetId: fc.option(fc.constantFrom('home', 'pdp'), { nil: undefined }),
  collectionId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
  contextIds: fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 3 }),
  blocked: fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 4 }),
  now: fc.constantFrom(T0 - 10, T0, T0 + 5, T0 + 10, T0 + 20),
});

/** What recommend() does with a chain's candidates, fed from a list. */
function realAnswer(engine: ShopEngine, candidates: readonly ReferenceCandidate[], request: ReferenceRequest): ReferenceItem[] {
  const catalog = engine.catalog;
  const blocked = new DenseSet();
  for (const id of request.blocked) {
    const dense = catalog.denseOf(id);
    if (dense !== undefined) blocked.add(dense);
  }
  const context = request.context.filter((p) => catalog.get(p.id) !== undefined);
  const contextDense = context.map((p) => catalog.denseOf(p.id)!);
  const plan = planRules({ book: engine.rules, index: engine.attributes, catalog, strategy: request.strategy, request, context, contextDense, now: request.now, shape: UNSHAPED, blocked });
  const pick = new PickList(plan?.window ?? request.limit, catalog, blocked, plan?.constraints ?? []);
  for (const c of candidates) if (pick.offer(catalog.denseOf(c.id)!, c.score, c.strategy)) break;
  const finished = { ids: pick.ids, scores: pick.scores, strategies: pick.strategies, ruleIds: pick.ids.map((): string | undefined => undefined) };
  if (plan !== undefined) finishAnswer(finished, plan.effects, plan.organic, request.strategy);
  return finished.ids.map((id, i) => ({ id: catalog.product(id)!.id, score: finished.scores[i]!, strategy: finished.strategies[i]!, ...(finished.ruleIds[i] === undefined ? {} : { ruleId: finished.ruleIds[i] }) }));
}

describe('rule application', () => {
  test('When random rules meet random candidates, with no context product, one or a cart of them, then the answer is the reference answer', () => {
    fc.assert(
      fc.property(catalogArb, rulesArb, candidatesArb, requestArb, (catalog, rules, rawCandidates, r) => {
        const engine = new ShopEngine(DEFAULT_ENGINE_CONFIG);
        for (const p of catalog) engine.upsertProduct(p);
        for (const rule of rules) engine.setRule(rule.id, rule);
        const inCatalog = new Set(catalog.map((p) => p.id));
        // Producers offer catalog products only.
        const candidates = rawCandidates.filter((c) => inCatalog.has(c.id));
        const context = catalog.filter((p) => r.contextIds.includes(p.id));
        const request: ReferenceRequest = {
          strategy: r.strategy,
          limit: r.limit,
          ...(r.widgetId === undefined ? {} : { widgetId: r.widgetId }),
          ...(r.collectionId === undefined ? {} : { collectionId: r.collectionId }),
          context,
          blocked: [...r.blocked, ...context.map((p) => p.id)],
          now: r.now,
        };
        const real = realAnswer(engine, candidates, request);
        const expected = referenceRuleAnswer(catalog, rules, candidates, request);
        expect(real.map((i) => [i.id, i.strategy, i.ruleId])).toEqual(expected.map((i) => [i.id, i.strategy, i.ruleId]));
        for (let i = 0; i < real.length; i++) expect(real[i]!.score).toBeCloseTo(expected[i]!.score, 9);
      }),
      { numRuns: 3000 },
    );
  });

  test('When a rule is replaced or removed, then the book holds the latest of each id, in id order, and its window edges', () => {
    const engine = new ShopEngine(DEFAULT_ENGINE_CONFIG);
    const rule = (id: string, from?: number, until?: number): Rule => ({ id, enabled: true, ...(from === undefined ? {} : { from }), ...(until === undefined ? {} : { until }), when: {}, then: {}, updatedAt: 0 });
    engine.setRule('b', rule('b', 10, 20));
    engine.setRule('a', rule('a', 15));
    engine.setRule('c', rule('c'));
    engine.setRule('b', rule('b', 30));
    expect(engine.rules.list().map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect([engine.rules.lastEdge(14), engine.rules.lastEdge(15), engine.rules.nextEdge(15), engine.rules.nextEdge(30)]).toEqual([-Infinity, 15, 30, Infinity]);
    engine.setRule('b', undefined);
    expect(engine.rules.list().map((r) => r.id)).toEqual(['a', 'c']);
    expect(engine.rules.nextEdge(15)).toBe(Infinity);
    expect(engine.rules.get('b')).toBeUndefined();
  });
});
