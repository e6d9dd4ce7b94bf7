// The shop's recency setting (PUT /api/shop/recency): the wire type and its typia validator.
import typia from 'typia';
import type { Recency } from '../engine/engine-config.js';
import { invalidFields, type FieldError } from '../errors.js';
import { typiaPathToPointer } from './json-pointer.js';

export interface WireRecency {
  /**
   * Whether time-based priors shape the shop's answers (momentum, decayed basket pairs, the decay
   * of a shopper's history): `auto` lets the service decide (today: they do), `off` turns all of
   * them off at once.
   */
  recency: 'auto' | 'off';
}

/** The setting as stored and answered (and as GET /api/shop shows it). */
export interface ShopRecency {
  recency: 'auto' | 'off';
  /** What answers apply: `off` when the shop's setting or the service's (PAIRWISE_RECENCY) is off. */
  effective: 'auto' | 'off';
}

export type RecencyParse = { ok: true; recency: Recency } | { ok: false; errors: FieldError[] };

const validate = typia.createValidate<WireRecency>();

/** Never throws: every problem is a field error with its JSON pointer. */
export function parseRecency(input: unknown): RecencyParse {
  const result = validate(input);
  if (result.success) return { ok: true, recency: result.data.recency };
  return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: `must be ${e.expected.replace(/"/g, "'")}` })) };
}

/** PUT /api/shop/recency's body: the setting (see parseRecency); throws invalid_recency. */
export function recencyBody(input: unknown): Recency {
  const parsed = parseRecency(input);
  if (!parsed.ok) throw invalidFields('invalid_recency', parsed.errors, 'body');
  return parsed.recency;
}
