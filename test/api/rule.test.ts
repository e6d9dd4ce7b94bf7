// The rule wire type's parse: any JSON at all is a rule or a list of field errors (never a throw),
// a malformed filter anywhere is an error at its field with its position and expected token, and a
// stored rule shown by the API parses back to itself.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseRule, ruleView } from '../../src/api/rule.js';
import { STRATEGIES } from '../../src/engine/strategy.js';

const FILTERS = ['vendor:Acme', 'price < 20 AND NOT tag:clearance', 'same:vendor', 'price:0.5x..2x', '(collection:summer OR collection:beach)'];
const BROKEN = ['vendor:', 'price <', '(tag:a', 'AND', 'tag:a OR', 'price:1..', '"open'];

const wireRule = fc.record(
  {
    enabled: fc.boolean(),
    from: fc.constantFrom('2026-06-01T00:00:00Z', '2026-06-01T00:00:00.000Z'),
    until: fc.constantFrom('2026-06-08T00:00:00Z'),
    when: fc.record(
      {
        strategies: fc.uniqueArray(fc.constantFrom(...STRATEGIES), { minLength: 1, maxLength: 6 }),
        widgetIds: fc.uniqueArray(fc.constantFrom('home', 'pdp', 'cart'), { minLength: 1 }),
        collectionIds: fc.uniqueArray(fc.constantFrom('42', 'summer', 'gid://shopify/Collection/7'), { minLength: 1 }),
        context: fc.constantFrom(...FILTERS),
      },
      { requiredKeys: [] },
    ),
    then: fc.record(
      {
        pin: fc.array(fc.record({ productId: fc.constantFrom('1', '2', 'gid://shopify/Product/3'), position: fc.integer({ min: 1, max: 24 }) }), { maxLength: 24 }),
        hide: fc.constantFrom(...FILTERS),
        filter: fc.constantFrom(...FILTERS),
        boost: fc.array(fc.record({ filter: fc.constantFrom(...FILTERS), factor: fc.constantFrom(0.01, 0.5, 2, 100) }), { maxLength: 8 }),
        diversity: fc.record({ by: fc.constantFrom('vendor', 'productType'), max: fc.integer({ min: 1, max: 24 }) }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

describe('parseRule', () => {
  test('When any JSON value is parsed, then it is a rule or field errors with JSON pointers, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), wireRule.map((r) => JSON.parse(JSON.stringify(r)) as unknown)), fc.constantFrom('r1', 'bad id', ''), (input, id) => {
        const parsed = parseRule(id, input);
        if (parsed.ok) expect(parsed.rule.id).toBe(id);
        else for (const error of parsed.errors) expect(error.pointer).toMatch(/^(\/|$)/);
      }),
      { numRuns: 2000 },
    );
  });

  test('When a filter of a rule is malformed, then the error names that field, the position and the token expected', () => {
    fc.assert(
      fc.property(wireRule, fc.constantFrom('/when/context', '/then/hide', '/then/filter', '/then/boost/0/filter'), fc.constantFrom(...BROKEN), (rule, field, broken) => {
        const input = structuredClone(rule) as { when?: Record<string, unknown>; then?: Record<string, unknown> };
        if (field === '/when/context') input.when = { ...input.when, context: broken };
        else if (field === '/then/boost/0/filter') input.then = { ...input.then, boost: [{ filter: broken, factor: 2 }] };
        else input.then = { ...input.then, [field.slice('/then/'.length)]: broken };
        const parsed = parseRule('r1', input);
        expect(parsed.ok).toBe(false);
        if (parsed.ok) return;
        const error = parsed.errors.find((e) => e.pointer === field);
        expect(error).toMatchObject({ position: expect.any(Number), expected: expect.any(String) });
        expect(error!.position).toBeLessThanOrEqual(broken.length);
      }),
      { numRuns: 500 },
    );
  });

  test('When a valid rule is stored and shown, then the view parses back to the same rule', () => {
    fc.assert(
      fc.property(wireRule, (wire) => {
        const parsed = parseRule('r1', wire);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const { updatedAt: _updatedAt, ...body } = ruleView({ ...parsed.rule, updatedAt: 0 }, 'shopify');
        const again = parseRule('r1', body);
        expect(again).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });
});
