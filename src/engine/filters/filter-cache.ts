// Per shop, compiled filters by their canonical text, so a filter is checked against the catalog's
// attributes once, not per request. Bounded (MAX_COMPILED_FILTERS, oldest out first: a flood of
// unique filters costs only compiles). An entry holds while the catalog's set of custom attribute
// names is the one it was compiled against (AttributeIndex.namesVersion): an attribute appearing
// or disappearing recompiles it, so an unknown attribute stays an error exactly while it is unknown.
import type { AttributeIndex } from './attribute-index.js';
import { compileFilter, type CompiledFilter } from './compiled-filter.js';
import type { FilterError, FilterExpression } from './filter-syntax.js';

export const MAX_COMPILED_FILTERS = 256;

/** A filter as a request carries it: parsed, with its canonical text (formatFilter). */
export interface ParsedFilter {
  readonly text: string;
  readonly expression: FilterExpression;
}

export type FilterCompile = { ok: true; filter: CompiledFilter } | { ok: false; error: FilterError };

export class FilterCache {
  readonly #entries = new Map<string, { namesVersion: number; compiled: FilterCompile }>();

  constructor(readonly index: AttributeIndex) {}

  get size(): number {
    return this.#entries.size;
  }

  compile(filter: ParsedFilter): FilterCompile {
    const entry = this.#entries.get(filter.text);
    if (entry !== undefined && entry.namesVersion === this.index.namesVersion) return entry.compiled;
    const compiled = compileFilter(filter.expression, this.index);
    this.#entries.delete(filter.text);
    if (this.#entries.size >= MAX_COMPILED_FILTERS) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(filter.text, { namesVersion: this.index.namesVersion, compiled });
    return compiled;
  }
}
