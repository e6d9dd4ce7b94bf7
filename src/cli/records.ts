// Reads import files into plain records: JSON (an array, or {products:[…]} / {events:[…]}),
// NDJSON (one object a line) or CSV with a header row; .gz is decompressed on the fly.
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { gunzipSync, createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';

export type FileFormat = 'json' | 'ndjson' | 'csv';

export function formatOf(file: string): FileFormat {
  const name = file.replace(/\.gz$/, '').toLowerCase();
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.json')) return 'json';
  throw new Error(`cannot tell the format of ${file}: use .json, .ndjson/.jsonl or .csv (optionally .gz)`);
}

function open(file: string): Readable {
  const stream = createReadStream(file);
  return file.endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
}

/** Number of records in the file (for the progress bar): lines, minus the CSV header. */
export async function countRecords(file: string, format: FileFormat, key: string): Promise<number> {
  if (format === 'json') return readJsonArray(file, key).length;
  let lines = 0;
  for await (const line of createInterface({ input: open(file), crlfDelay: Infinity })) if (line.trim() !== '') lines++;
  return format === 'csv' ? Math.max(0, lines - 1) : lines;
}

function readJsonArray(file: string, key: string): unknown[] {
  const raw = readFileSync(file);
  const parsed = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as unknown;
  if (Array.isArray(parsed)) return parsed;
  const inner = (parsed as Record<string, unknown> | null)?.[key];
  if (Array.isArray(inner)) return inner;
  throw new Error(`${file} must hold a JSON array or {"${key}": [...]}`);
}

/** Records one by one; CSV cells are strings, turned into fields by `fromCsv`. */
export async function* readRecords(file: string, format: FileFormat, key: string, fromCsv: (row: Record<string, string>) => unknown): AsyncIterable<unknown> {
  if (format === 'json') {
    yield* readJsonArray(file, key);
  } else if (format === 'ndjson') {
    let lineNumber = 0;
    for await (const line of createInterface({ input: open(file), crlfDelay: Infinity })) {
      lineNumber++;
      if (line.trim() === '') continue;
      try {
        yield JSON.parse(line) as unknown;
      } catch {
        throw new Error(`${file}:${lineNumber} is not valid JSON`);
      }
    }
  } else {
    for await (const row of open(file).pipe(parse({ columns: true, skip_empty_lines: true, trim: true, bom: true }))) {
      yield fromCsv(row as Record<string, string>);
    }
  }
}

function list(cell: string | undefined): string[] | undefined {
  if (cell === undefined || cell === '') return undefined;
  return cell.split(/[;|]/).map((s) => s.trim()).filter((s) => s !== '');
}

function optional(cell: string | undefined): string | undefined {
  return cell === undefined || cell === '' ? undefined : cell;
}

/** CSV catalog columns: id,title,handle,image,price,compareAtPrice,vendor,productType,tags,collections,available (lists split by ; or |). */
export function productFromCsv(row: Record<string, string>): unknown {
  return {
    id: row.id,
    title: row.title,
    handle: optional(row.handle),
    image: optional(row.image),
    price: optional(row.price),
    compareAtPrice: optional(row.compareAtPrice),
    vendor: optional(row.vendor),
    productType: optional(row.productType),
    tags: list(row.tags),
    collections: list(row.collections),
    available: row.available === undefined || row.available === '' ? undefined : !/^(false|0|no)$/i.test(row.available),
  };
}

/** CSV event columns: type,productId,sessionId,customerId,widgetId,messageId,timestamp,orderId. */
export function eventFromCsv(row: Record<string, string>): unknown {
  const timestamp = optional(row.timestamp);
  return {
    type: row.type,
    productId: row.productId,
    sessionId: row.sessionId,
    customerId: optional(row.customerId),
    widgetId: optional(row.widgetId),
    messageId: optional(row.messageId),
    timestamp: timestamp !== undefined && /^\d+$/.test(timestamp) ? Number(timestamp) : timestamp,
    metadata: optional(row.orderId) ? { orderId: row.orderId } : undefined,
  };
}
