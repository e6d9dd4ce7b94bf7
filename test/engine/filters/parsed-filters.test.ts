// Recent filter texts are parsed once: the same parse comes back for the same text, errors too,
// and the memory is bounded (the oldest text goes first).
import { describe, expect, test } from 'vitest';
import { formatFilter, parseFilter } from '../../../src/engine/filters/filter-syntax.js';
import { MAX_PARSED_FILTERS, ParsedFilters } from '../../../src/engine/filters/parsed-filters.js';

describe('parsed filters', () => {
  test('When a filter text comes again, then its parse is the one kept, with the canonical text', () => {
    const filters = new ParsedFilters();
    const first = filters.parse('vendor:Acme AND (tag:new OR same:vendor)');
    expect(filters.parse('vendor:Acme AND (tag:new OR same:vendor)')).toBe(first);
    const expected = parseFilter('vendor:Acme AND (tag:new OR same:vendor)');
    if (!expected.ok || !first.ok) throw new Error('parse');
    expect(first.filter).toEqual({ text: formatFilter(expected.expression), expression: expected.expression });
  });

  test('When a filter does not parse, then its error is kept as well', () => {
    const filters = new ParsedFilters();
    const bad = filters.parse('vendor:Acme AND (');
    expect(bad.ok).toBe(false);
    expect(filters.parse('vendor:Acme AND (')).toBe(bad);
  });

  test('When more texts come than it keeps, then the oldest go first and the size stays bounded', () => {
    const filters = new ParsedFilters();
    const first = filters.parse('tag:t0');
    for (let i = 1; i <= MAX_PARSED_FILTERS; i++) filters.parse(`tag:t${i}`);
    expect(filters.size).toBe(MAX_PARSED_FILTERS);
    expect(filters.parse('tag:t0')).not.toBe(first);
    expect(filters.parse(`tag:t${MAX_PARSED_FILTERS}`)).toBe(filters.parse(`tag:t${MAX_PARSED_FILTERS}`));
  });
});
