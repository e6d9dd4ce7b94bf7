import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CATALOG_CSV, EVENTS_CSV } from '../../src/cli/csv-columns.js';
import type { FileRecord } from '../../src/cli/file-record.js';
import { readRecords, type FileFormat } from '../../src/cli/records.js';

/** What a reader should find in a generated file: each record's value (or refusal) at its start line. */
interface Expected {
  line: number;
  value?: unknown;
  refused?: true;
}

/** The file as bytes cut at random places (also inside multi-byte characters and CRLFs). */
function chunked(bytes: Buffer, cuts: number[]): Readable {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) pieces.push(bytes.subarray(from, to));
    from = to;
  }
  return Readable.from(pieces, { objectMode: false });
}

async function read(bytes: Buffer, cuts: number[], format: FileFormat, events = true): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  const unknown: string[][] = [];
  for await (const r of readRecords(chunked(bytes, cuts), format, { key: events ? 'events' : 'products', csv: events ? EVENTS_CSV : CATALOG_CSV, onUnknownColumns: (c) => unknown.push(c) })) out.push(r);
  return out;
}

function expectMatches(found: FileRecord[], expected: Expected[]): void {
  expect(found.map((r) => ({ line: r.line, ...(r.error !== undefined ? { refused: true } : { value: r.value }) }))).toEqual(expected);
}

/** Text that may hold anything a cell or a JSON string meets: quotes, commas, newlines, CRLF, non-ASCII. */
const text = fc
  .tuple(fc.array(fc.constantFrom('a', 'z', 'é', '🙂', ' ', ',', '"', '\n'), { maxLength: 12 }), fc.boolean())
  .map(([chars, crlf]) => chars.join('').replace(/\n/g, crlf ? '\r\n' : '\n'));
const plain = fc.stringMatching(/^[a-z0-9é]{1,8}$/);
const eol = fc.constantFrom('\n', '\r\n');

describe('readRecords', () => {
  test('When NDJSON lines are a random mix of objects, text that does not parse and blank lines, then every object and every bad line comes at its own line', async () => {
    const line = fc.oneof(
      fc.record({ kind: fc.constant('good' as const), value: fc.record({ type: plain, productId: plain, note: text }) }),
      fc.record({ kind: fc.constant('bad' as const), text: fc.constantFrom('{"type":', 'not json', '{"a":1}}', '[1,', '"unterminated') }),
      fc.record({ kind: fc.constant('blank' as const), text: fc.constantFrom('', '   ', '\t') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 40 }), eol, fc.array(fc.nat(), { maxLength: 8 }), async (lines, newline, cuts) => {
        const expected: Expected[] = [];
        const body = lines
          .map((l, i) => {
            if (l.kind === 'good') expected.push({ line: i + 1, value: l.value });
            if (l.kind === 'bad') expected.push({ line: i + 1, refused: true });
            return l.kind === 'good' ? JSON.stringify(l.value) : l.text;
          })
          .join(newline);
        expectMatches(await read(Buffer.from(body), cuts, 'ndjson'), expected);
      }),
      { numRuns: 150 },
    );
  });

  test('When CSV rows are a random mix of good rows (quoted cells across lines, CRLF or LF), rows with too few or too many cells and blank lines, then each comes at the line it starts on', async () => {
    const columns = ['type', 'productId', 'sessionId'];
    const quote = (cell: string) => (/[",\r\n ]/.test(cell) || cell === '' ? `"${cell.replace(/"/g, '""')}"` : cell);
    const row = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('good' as const), cells: fc.tuple(plain, text, plain) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('bad' as const), cells: fc.oneof(fc.array(plain, { minLength: 1, maxLength: 2 }), fc.array(plain, { minLength: 4, maxLength: 5 })) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('blank' as const), cells: fc.constant([] as string[]) }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), eol, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), async (rows, newline, cuts, bom) => {
        const expected: Expected[] = [];
        let line = 2;
        const parts = [columns.join(',')];
        for (const r of rows) {
          const textOfRow = r.cells.map(quote).join(',');
          if (r.kind === 'good') expected.push({ line, value: { type: r.cells[0], productId: r.cells[1], sessionId: r.cells[2] } });
          if (r.kind === 'bad') expected.push({ line, refused: true });
          parts.push(textOfRow);
          line += 1 + (textOfRow.match(/\n/g)?.length ?? 0);
        }
        const body = (bom ? '\uFEFF' : '') + parts.join(newline) + newline;
        const found = await read(Buffer.from(body), cuts, 'csv');
        // the event's optional fields are undefined: compare the three that were written
        expectMatches(
          found.map((r) => (r.error !== undefined ? r : { line: r.line, value: pick(r.value as Record<string, unknown>, columns) })),
          expected,
        );
      }),
      { numRuns: 150 },
    );
  });

  test('When a JSON array holds pretty-printed objects and elements that do not parse, then each element is judged alone at the line it starts on', async () => {
    const element = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('good' as const), value: fc.record({ type: plain, productId: plain, note: text, tags: fc.array(plain, { maxLength: 2 }) }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad' as const), text: fc.constantFrom('{"type": }', '{"a" 1}', 'nul', '{"a":[1,]}', '{\n  "x": 01\n}', '"a\\"]"x') }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(element, { maxLength: 25 }), fc.boolean(), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (elements, wrapped, pretty, cuts) => {
        const expected: Expected[] = [];
        let text = wrapped ? '{\n  "source": "shop [x] {y}",\n  "events": [' : '[';
        let line = 1 + (text.match(/\n/g)?.length ?? 0);
        elements.forEach((e, i) => {
          const sep = (i > 0 ? ',' : '') + (pretty ? '\n  ' : ' ');
          line += sep.split('\n').length - 1;
          text += sep;
          const body = e.kind === 'good' ? JSON.stringify(e.value, null, pretty ? 2 : 0) : e.text;
          expected.push(e.kind === 'good' ? { line, value: e.value } : { line, refused: true });
          text += body;
          line += body.split('\n').length - 1;
        });
        text += wrapped ? '\n],\n"more": {"events": 1}}\n' : '\n]\n';
        expectMatches(await read(Buffer.from(text), cuts, 'json'), expected);
      }),
      { numRuns: 150 },
    );
  });

  test('When a JSON file is not an array, is cut short, or holds no events, then it is one refusal with the reason', async () => {
    const one = async (text: string) => (await read(Buffer.from(text), [], 'json')).filter((r) => r.error !== undefined);
    expect(await one('{"products": [1]}')).toEqual([{ line: 1, error: 'the object has no "events" array' }]);
    expect(await one('"events"')).toEqual([{ line: 1, error: 'not a JSON array or an object holding "events": [...]' }]);
    expect(await one('')).toEqual([{ line: 1, error: 'empty file: expected a JSON array' }]);
    expect(await one('[\n{"a":1},\n{"b":')).toEqual([{ line: 3, error: 'the file ends inside this record' }]);
    expect(await read(Buffer.from('[\n{"a":1}\n'), [], 'json')).toEqual([{ line: 2, value: { a: 1 } }, { line: 3, error: "the file ends before the array is closed with ']'" }]);
    expect(await one('[{"a":1},\n]')).toEqual([{ line: 1, error: 'a comma with no record after it' }]);
    expect(await one('[{"a":1}] x')).toEqual([{ line: 1, error: 'unexpected text after the array' }]);
  });

  test('When a CSV header lacks a required column, then the file is one refusal naming the expected columns; unknown columns are named and ignored', async () => {
    const catalogHeader = await read(Buffer.from('id,title,price\n1,Mug,3\n'), [], 'csv', true);
    expect(catalogHeader).toEqual([{ line: 1, error: expect.stringContaining('the header lacks type, productId, sessionId: the events columns are type,productId,sessionId,') }]);
    expect(catalogHeader[0]!.error).toContain('this header is a catalog header');
    const unknown: string[][] = [];
    const rows: FileRecord[] = [];
    for await (const r of readRecords(Readable.from([Buffer.from('type,productID,productId,sessionId\nview,x,1,s\n')]), 'csv', { key: 'events', csv: EVENTS_CSV, onUnknownColumns: (c) => unknown.push(c) })) rows.push(r);
    expect(unknown).toEqual([['productID']]);
    expect(rows).toMatchObject([{ line: 2, value: { type: 'view', productId: '1', sessionId: 's' } }]);
  });

  test('When a CSV row has a stray quote, then that record is refused at its line and the rows before it are kept', async () => {
    const found = await read(Buffer.from('type,productId,sessionId\r\nview,"a\r\nb",s\r\nview,x"y,s\r\n'), [], 'csv');
    expect(found).toMatchObject([{ line: 2, value: { productId: 'a\r\nb' } }, { line: 4, error: expect.stringContaining('not valid CSV (Invalid Opening Quote') }]);
  });

  test('When a gzip file is truncated, then the records before the cut come and one refusal says reading stopped', async () => {
    const body = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ type: 'view', productId: String(i), sessionId: 's' })).join('\n');
    const gz = gzipSync(body);
    const found: FileRecord[] = [];
    const input = chunked(gz.subarray(0, Math.floor(gz.length / 2)), []).pipe(createGunzip());
    for await (const r of readRecords(input, 'ndjson', { key: 'events', csv: EVENTS_CSV })) found.push(r);
    const last = found.at(-1)!;
    expect(last.error).toBe('reading stopped here: the compressed file is truncated');
    expect(found.slice(0, -1).every((r, i) => r.line === i + 1 && r.error === undefined)).toBe(true);
  });
});

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
