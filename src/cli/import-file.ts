// Streams a file of products or events into a sink chunk by chunk, with a progress bar on stderr.
import cliProgress from 'cli-progress';
import { countRecords, eventFromCsv, formatOf, productFromCsv, readRecords } from './records.js';
import type { ChunkOutcome, ImportSink } from './sinks.js';

export type ImportKind = 'catalog' | 'events';

export interface ImportSummary {
  records: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** The first refusals, for the report. */
  errors: string[];
  seconds: number;
}

const MAX_REPORTED_ERRORS = 20;

export async function importFile(sink: ImportSink, shopId: string, kind: ImportKind, file: string, showProgress = process.stderr.isTTY): Promise<ImportSummary> {
  const started = performance.now();
  const format = formatOf(file);
  const key = kind === 'catalog' ? 'products' : 'events';
  const total = await countRecords(file, format, key);
  const bar = new cliProgress.SingleBar(
    { format: `${kind} {bar} {percentage}% | {value}/{total} | {speed}/s | ETA {eta_formatted}`, noTTYOutput: !showProgress, notTTYSchedule: 5000, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { speed: 0 });
  const summary: ImportSummary = { records: 0, accepted: 0, duplicates: 0, rejected: 0, errors: [], seconds: 0 };
  const size = kind === 'catalog' ? sink.productsPerChunk : sink.eventsPerChunk;
  let chunk: unknown[] = [];
  const flush = async () => {
    const offset = summary.records;
    const outcome: ChunkOutcome = kind === 'catalog' ? await sink.products(shopId, chunk, offset) : await sink.events(shopId, chunk, offset);
    summary.records += chunk.length;
    summary.accepted += outcome.accepted;
    summary.duplicates += outcome.duplicates;
    summary.rejected += outcome.errors.length;
    summary.errors.push(...outcome.errors.slice(0, MAX_REPORTED_ERRORS - summary.errors.length));
    chunk = [];
    const seconds = (performance.now() - started) / 1000;
    bar.update(summary.records, { speed: Math.round(summary.records / Math.max(seconds, 0.001)) });
  };
  for await (const record of readRecords(file, format, key, kind === 'catalog' ? productFromCsv : eventFromCsv)) {
    chunk.push(record);
    if (chunk.length >= size) await flush();
  }
  if (chunk.length > 0) await flush();
  bar.stop();
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  return summary;
}
