// Filter texts as requests send them (`filters=`), parsed once: the parse of each recent text (its
// canonical text and tree, or its error), bounded (MAX_PARSED_FILTERS, oldest out first: a flood of
// unique filters costs only parses). A parse is linear in the text, but a widget sends the same
// filter with every request, and a long one costs more to parse than the answer it shapes.
import type { ParsedFilter } from './filter-cache.js';
import { formatFilter, parseFilter, type FilterError } from './filter-syntax.js';

export const MAX_PARSED_FILTERS = 256;

export type FilterTextParse = { ok: true; filter: ParsedFilter } | { ok: false; error: FilterError };

export class ParsedFilters {
  readonly #entries = new Map<string, FilterTextParse>();

  get size(): number {
    return this.#entries.size;
  }

  /** The parse of `text`; the same object while the text stays among the recent ones. */
  parse(text: string): FilterTextParse {
    let parse = this.#entries.get(text);
    if (parse !== undefined) return parse;
    parse = parseOnce(text);
    if (this.#entries.size >= MAX_PARSED_FILTERS) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(text, parse);
    return parse;
  }
}

/** `text` parsed, with its canonical text (formatFilter). */
export function parseOnce(text: string): FilterTextParse {
  const parsed = parseFilter(text);
  return parsed.ok ? { ok: true, filter: { text: formatFilter(parsed.expression), expression: parsed.expression } } : parsed;
}
