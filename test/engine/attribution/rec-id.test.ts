// The recId format: what is minted parses back to the same parts, and the parser accepts exactly the
// strings of the grammar (checked against a regular expression that says it plainly).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CODED_STRATEGIES, MAX_EXPERIMENT_NUMBER, MAX_REC_ID_LENGTH, MAX_VARIANTS, parseRecId, recIdPrefix, STRATEGY_CODES } from '../../../src/engine/attribution/rec-id.js';
import { RecIdIssuer } from '../../../src/app/rec-id-issuer.js';

const GRAMMAR = /^rec_([bstpcr])_(0|[1-9a-z][0-9a-z]{0,2})_([0-9a-f])_[0-9a-z]+$/;

/** The grammar's reading of a string, or undefined: the plain statement of what parseRecId must do. */
function expected(raw: string) {
  const m = raw.length <= MAX_REC_ID_LENGTH ? GRAMMAR.exec(raw) : null;
  if (m === null) return undefined;
  const experiment = parseInt(m[2]!, 36);
  const variant = parseInt(m[3]!, 16);
  if ((experiment === 0) !== (variant === 0)) return undefined;
  return { strategy: STRATEGY_CODES.indexOf(m[1] as (typeof STRATEGY_CODES)[number]) + 1, experiment, variant };
}

const alphabet = fc.constantFrom(...'rec_bstpcrq0123456789afgxyzA-'.split(''));
const nearRecId = fc.oneof(
  fc.string(),
  fc.string({ unit: alphabet, maxLength: 70 }).map((s) => 'rec_' + s),
  fc.tuple(fc.constantFrom(...STRATEGY_CODES, 'q', 'B', ''), fc.string({ unit: alphabet, maxLength: 4 }), fc.string({ unit: alphabet, maxLength: 2 }), fc.string({ unit: alphabet, maxLength: 60 })).map(
    ([s, e, v, serial]) => `rec_${s}_${e}_${v}_${serial}`,
  ),
);

describe('recId', () => {
  test('When any string is parsed, then the parser never throws and agrees with the grammar', () => {
    fc.assert(
      fc.property(nearRecId, (raw) => {
        expect(parseRecId(raw)).toEqual(expected(raw));
      }),
      { numRuns: 5000 },
    );
  });

  test('When a recId is minted for any strategy, experiment and variant, then it parses back to them and fits the length bound', () => {
    const issuer = new RecIdIssuer();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: MAX_EXPERIMENT_NUMBER }), fc.integer({ min: 1, max: MAX_VARIANTS }), fc.boolean(), (s, e, v, none) => {
        const id = recIdPrefix(CODED_STRATEGIES[s]!, none ? 0 : e, none ? 0 : v) + issuer.next();
        expect(id.length).toBeLessThanOrEqual(MAX_REC_ID_LENGTH);
        expect(parseRecId(id)).toEqual({ strategy: s + 1, experiment: none ? 0 : e, variant: none ? 0 : v });
      }),
    );
  });

  test('When an issuer mints many ids, then no two are equal, and two issuers differ by their tags', () => {
    const a = new RecIdIssuer();
    const ids = new Set(Array.from({ length: 10_000 }, () => a.next()));
    expect(ids.size).toBe(10_000);
    expect(new RecIdIssuer('x').next()).not.toBe(new RecIdIssuer('y').next());
  });

  test('When ids are malformed in the ways a client might send them, then none parses', () => {
    for (const raw of ['', 'rec_', 'rec_t_0_0_', 'rec_t_00_0_a', 'rec_t_0_1_a', 'rec_t_1_0_a', 'rec_t_1000_1_a', 'rec_T_0_0_a', 'rec_t_0_0_A', 'rec_t_0_0_a b', 'rec_t_0_0_' + 'a'.repeat(60)]) {
      expect(parseRecId(raw), raw).toBeUndefined();
    }
  });
});
