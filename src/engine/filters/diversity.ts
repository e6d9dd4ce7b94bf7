// Diversity: at most `max` items of an answer share a value of one single-valued attribute
// (`diversity=vendor:2`). The syntax, its check against the shop's attributes, and the cap as an
// answer constraint.
import type { Catalog } from '../catalog.js';
import type { AttributeIndex } from './attribute-index.js';
import { textValues } from './attributes.js';
import type { FilterError } from './filter-syntax.js';

export interface Diversity {
  readonly attribute: string;
  readonly max: number;
}

/** Attributes a product holds one value of (tags and collections hold many: not a diversity key). */
const SINGLE_VALUED = ['vendor', 'productType'];
const SYNTAX = /^([A-Za-z][A-Za-z0-9_]{0,63}):([1-9][0-9]?)$/;

export type DiversityParse = { ok: true; diversity: Diversity } | { ok: false; error: FilterError };

/** `attribute:max` with max from 1 to `maxItems` (the largest limit). */
export function parseDiversity(text: string, maxItems: number): DiversityParse {
  const match = SYNTAX.exec(text);
  if (match === null) {
    const colon = text.indexOf(':');
    const position = colon < 0 ? text.length : colon + 1;
    return { ok: false, error: { position, expected: colon < 0 ? "':' and a count" : 'a count from 1 to ' + maxItems, detail: `diversity must read attribute:count such as vendor:2` } };
  }
  const max = Number(match[2]);
  if (max > maxItems) return { ok: false, error: { position: match[1]!.length + 1, expected: `a count from 1 to ${maxItems}`, detail: `diversity allows at most ${maxItems} items per value` } };
  return { ok: true, diversity: { attribute: match[1]!, max } };
}

/** undefined when the shop can diversify by the attribute; else why not. */
export function checkDiversity(diversity: Diversity, index: AttributeIndex): FilterError | undefined {
  if (SINGLE_VALUED.includes(diversity.attribute) || index.hasCustom(diversity.attribute)) return undefined;
  return { position: 0, expected: 'vendor, productType or a custom attribute of the catalog', detail: `cannot diversify by '${diversity.attribute.slice(0, 64)}'` };
}

/**
 * The cap during one answer: the values of the items picked so far, scanned linearly (an answer
 * holds at most 24 items, so no map). Products without a value are never capped.
 */
export class DiversityCap {
  readonly #values: string[] = [];

  constructor(
    readonly diversity: Diversity,
    readonly catalog: Catalog,
  ) {}

  #valueOf(id: number): string | undefined {
    const product = this.catalog.product(id);
    return product === undefined ? undefined : textValues(product, this.diversity.attribute)[0];
  }

  admits(id: number): boolean {
    const value = this.#valueOf(id);
    if (value === undefined) return true;
    let count = 0;
    for (const held of this.#values) if (held === value && ++count >= this.diversity.max) return false;
    return true;
  }

  picked(id: number): void {
    const value = this.#valueOf(id);
    if (value !== undefined) this.#values.push(value);
  }
}
