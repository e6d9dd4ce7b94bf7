// Streams a file of products or events into a sink chunk by chunk. Every record is judged alone:
// each one refused (text that is not a record, or a record the API refuses) is reported as
// `file:line: reason` while the rest are stored.
import type { CsvLayout } from './csv-columns.js';
import { CATALOG_CSV, EVENTS_CSV } from './csv-columns.js';
import type { Progress } from './progress.js';
import { readRecords, type FileFormat, type ImportInput } from './records.js';
import type { ChunkOutcome, ImportSink } from './sinks.js';

export type ImportKind = 'catalog' | 'events';

export interface ImportSummary {
  /** Records read, refused ones included. */
  records: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  seconds: number;
  /** Why the import stopped before the end of the file (the sink failed), and the first line not imported. */
  stopped?: { reason: string; line: number };
}

export interface ImportJob {
  readonly sink: ImportSink;
  /** Undefined through the API, where the key names the shop. */
  readonly shopId: string | undefined;
  readonly kind: ImportKind;
  /** The file's name as the user gave it, for messages. */
  readonly file: string;
  readonly format: FileFormat;
  readonly input: ImportInput;
  readonly progress: Progress;
}

const LAYOUTS: Record<ImportKind, { key: string; csv: CsvLayout }> = {
  catalog: { key: 'products', csv: CATALOG_CSV },
  events: { key: 'events', csv: EVENTS_CSV },
};

export async function importFile(job: ImportJob): Promise<ImportSummary> {
  const { sink, kind, file, progress } = job;
  const started = performance.now();
  const summary: ImportSummary = { records: 0, accepted: 0, duplicates: 0, rejected: 0, seconds: 0 };
  // Refusals are held with their chunk and printed in line order when it is flushed.
  let refusals: { line: number; reason: string }[] = [];
  const size = kind === 'catalog' ? sink.productsPerChunk : sink.eventsPerChunk;
  let chunk: unknown[] = [];
  let lines: number[] = [];
  const flush = async () => {
    if (chunk.length > 0) {
      const outcome: ChunkOutcome = kind === 'catalog' ? await sink.products(job.shopId, chunk) : await sink.events(job.shopId, chunk);
      summary.accepted += outcome.accepted;
      summary.duplicates += outcome.duplicates;
      for (const { index, reason } of outcome.refused) refusals.push({ line: lines[index]!, reason });
    }
    refusals.sort((a, b) => a.line - b.line);
    for (const { line, reason } of refusals) progress.log(`${file}:${line}: ${reason}`);
    summary.rejected += refusals.length;
    chunk = [];
    lines = [];
    refusals = [];
    progress.update(summary.records, job.input.bytesRead());
  };
  const { key, csv } = LAYOUTS[kind];
  const onUnknownColumns = (columns: string[]) =>
    progress.log(`${file}:1: warning: ignoring the column${columns.length > 1 ? 's' : ''} ${columns.join(', ')} (the ${csv.what} columns are ${csv.columns.join(',')})`);
  try {
    for await (const record of readRecords(job.input.stream, job.format, { key, csv, onUnknownColumns })) {
      summary.records++;
      if (record.error !== undefined) refusals.push({ line: record.line, reason: record.error });
      else {
        chunk.push(record.value);
        lines.push(record.line);
      }
      if (chunk.length >= size || refusals.length >= size) await flush();
    }
    await flush();
  } catch (error) {
    // The sink failed (the server went away): the chunk's fate is unknown, so say where to resume.
    summary.stopped = { reason: (error as Error).message, line: lines[0] ?? refusals[0]?.line ?? 1 };
    job.input.stream.destroy();
  }
  progress.stop();
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  return summary;
}
