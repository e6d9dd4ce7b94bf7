// Reads import files record by record, each with the line it starts on: JSON (an array, or
// {products:[…]} / {events:[…]}), NDJSON (one object a line) or CSV with a header row; .gz is
// decompressed on the fly. Text that is not a record becomes a refusal at its line, and reading
// goes on: one bad line never costs the others. Streams throughout, so memory stays bounded.
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parse, type CsvError, type Options as CsvOptions } from 'csv-parse';
import { checkHeader, rowOf, type CsvLayout } from './csv-columns.js';
import type { FileRecord } from './file-record.js';
import { JsonArraySplitter } from './json-array-splitter.js';
import { LineIndex } from './line-index.js';
import { feedRecords, sniffFeed, type FeedFormat } from '../integrations/feeds/feed-records.js';

export type FileFormat = 'json' | 'ndjson' | 'csv' | FeedFormat;

/** The format named by the file's extension, or undefined. */
export function formatOf(file: string): FileFormat | undefined {
  const name = file.replace(/\.gz$/i, '').toLowerCase();
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.xml')) return 'feed-xml';
  if (name.endsWith('.tsv')) return 'feed-tsv';
  return undefined;
}

/**
 * The format of a catalog file: a product feed when its first bytes say so (XML, or a tab-separated
 * header with an id column), whatever its name; else as its name says.
 */
export async function catalogFormatOf(file: string): Promise<FileFormat | undefined> {
  return sniffFeed(await head(file)) ?? formatOf(file);
}

/** The file's first 4 KiB as text, decompressed when it is .gz ('' when it cannot be read). */
async function head(file: string): Promise<string> {
  const raw = createReadStream(file, { start: 0, end: 65_535 });
  const stream = /\.gz$/i.test(file) ? raw.pipe(createGunzip()) : raw;
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length >= 4096) break;
    }
  } catch {
    // A short or unreadable file: what was read decides.
  } finally {
    raw.destroy();
    stream.destroy();
  }
  return text.slice(0, 4096);
}

export interface ImportInput {
  /** Decompressed bytes. */
  readonly stream: Readable;
  /** Bytes of the file read so far, and its size (for progress). */
  bytesRead(): number;
  readonly size: number;
}

/** Opens the file; resolves once it is open, so a missing file fails here, before any output. */
export async function openInput(file: string): Promise<ImportInput> {
  const raw: ReadStream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    raw.once('ready', () => resolve());
    raw.once('error', reject);
  });
  const { size } = await stat(file);
  const stream = /\.gz$/i.test(file) ? raw.pipe(createGunzip()) : raw;
  // pipe() does not pass the file's errors on: hand them to the stream that is read.
  if (stream !== raw) raw.once('error', (error) => stream.destroy(error));
  return { stream, bytesRead: () => raw.bytesRead, size };
}

export interface ReadOptions {
  /** JSON: the member that may hold the array (`products`, `events`). */
  readonly key: string;
  readonly csv: CsvLayout;
  /** CSV header columns that are not the layout's (ignored). */
  readonly onUnknownColumns?: (columns: string[]) => void;
}

/**
 * Records one by one. A stream that fails midway (a truncated .gz) ends the records with one
 * refusal saying where reading stopped.
 */
export async function* readRecords(input: Readable, format: FileFormat, options: ReadOptions): AsyncGenerator<FileRecord> {
  const where = { line: 1 };
  try {
    if (format === 'feed-xml' || format === 'feed-tsv') yield* feedRecords(input, format);
    else if (format === 'ndjson') yield* ndjsonRecords(input, where);
    else if (format === 'json') yield* jsonRecords(input, options.key, where);
    else yield* csvRecords(input, options, where);
  } catch (error) {
    yield { line: where.line, error: `reading stopped here: ${readFault(error)}` };
  }
}

function readFault(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'Z_BUF_ERROR') return 'the compressed file is truncated';
  if (e.code === 'Z_DATA_ERROR') return `the compressed data is corrupt (${e.message})`;
  return e.message;
}

async function* ndjsonRecords(input: Readable, where: { line: number }): AsyncGenerator<FileRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    where.line = ++line;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch (error) {
      yield { line, error: `not valid JSON (${(error as Error).message})` };
    }
  }
}

async function* jsonRecords(input: Readable, key: string, where: { line: number }): AsyncGenerator<FileRecord> {
  const splitter = new JsonArraySplitter(key);
  input.setEncoding('utf8');
  for await (const text of input) {
    for (const record of splitter.push(text as string)) {
      where.line = record.line;
      yield record;
    }
  }
  yield* splitter.end();
}

interface CsvRow {
  cells: string[];
  /** Physical line where the record starts. */
  line: number;
  /** How many good records came before it, and this one (1-based). */
  ordinal: number;
}

/** The CSV header row gives the columns; a row with another number of cells is refused alone. */
async function* csvRecords(input: Readable, options: ReadOptions, where: { line: number }): AsyncGenerator<FileRecord> {
  const lines = new LineIndex();
  // A record with a CSV syntax fault (a stray quote) is skipped by the parser and reported once, at
  // the line csv-parse names (its own count, corrected by `drift`), in order among the records:
  // `after` is how many good records came before it. Both callbacks run inside the parser, in order.
  const faults: { after: number; record: FileRecord }[] = [];
  let drift = 0;
  let faultRaw: string | undefined;
  const csvOptions: CsvOptions = {
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    raw: true,
    on_record: (({ record }: { record: string[] }, info: { lines: number; bytes: number; records: number }): CsvRow => {
      faultRaw = undefined;
      // The physical line of the record's last byte (csv-parse has just read it, so the index
      // holds it), less the line breaks inside its cells.
      const end = lines.lineOf(Math.max(0, info.bytes - 1));
      let inner = 0;
      for (const cell of record) for (let at = cell.indexOf('\n'); at >= 0; at = cell.indexOf('\n', at + 1)) inner++;
      drift = info.lines - end; // csv-parse counts a CRLF inside quotes as two lines
      return { cells: record, line: end - inner, ordinal: info.records };
    }) as unknown as CsvOptions['on_record'],
    on_skip: (error: CsvError | undefined, raw: string | undefined) => {
      // One faulty record may be reported several times, each time with its text so far.
      const sameRecord = faultRaw !== undefined && raw !== undefined && raw.startsWith(faultRaw);
      faultRaw = raw;
      if (sameRecord || error === undefined) return undefined;
      const line = Math.max(1, ((error as CsvError & { lines?: number }).lines ?? 1) - drift);
      faults.push({ after: parser.info.records, record: { line, error: `not valid CSV (${error.message.replace(/ at line \d+/, '')})` } });
      return undefined;
    },
  };
  const parser = parse(csvOptions);
  const rows = pipeline(input, lines.tap(), parser, () => {}) as AsyncIterable<CsvRow>; // errors surface in the loop below
  const faultsBefore = function* (ordinal: number): Generator<FileRecord> {
    while (faults.length > 0 && faults[0]!.after < ordinal) yield faults.shift()!.record;
  };
  let header: string[] | undefined;
  for await (const { cells: record, line, ordinal } of rows) {
    yield* faultsBefore(ordinal);
    where.line = line;
    if (header === undefined) {
      header = record;
      const check = checkHeader(header, options.csv);
      if (check.error !== undefined) {
        yield { line, error: check.error };
        return;
      }
      if (check.unknown.length > 0) options.onUnknownColumns?.(check.unknown);
      continue;
    }
    if (record.length !== header.length) {
      yield { line, error: `${record.length} cells, but the header has ${header.length} columns` };
      continue;
    }
    yield { line, value: options.csv.fromRow(rowOf(header, record, options.csv)) };
  }
  yield* faultsBefore(Infinity);
  if (header === undefined) yield { line: 1, error: `empty file: expected a header row naming the ${options.csv.what} columns` };
}
