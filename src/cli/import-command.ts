// `import catalog|events`: into a data dir's LMDB, or through a running server's API (--url), where
// the secret key names the shop and nothing local is needed.
import { loadConfig } from '../config.js';
import { readLockHolder } from '../store/data-dir-lock.js';
import { checkLogLayout, ensureLogId } from '../store/database.js';
import { importFile, type ImportKind, type ImportSummary } from './import-file.js';
import { withDataDir } from './open-data-dir.js';
import { progressBar } from './progress.js';
import { catalogFormatOf, formatOf, openInput, type FileFormat, type ImportInput } from './records.js';
import { DirectSink, HttpSink } from './sinks.js';
import { UsageError } from './usage.js';

export interface ImportOptions {
  dataDir: string;
  url?: string;
  key?: string;
}

/** Runs the import and prints its summary; resolves to the exit status (1 if anything was refused). */
export async function importCommand(kind: ImportKind, args: string[], options: ImportOptions): Promise<number> {
  const command = `import ${kind}`;
  if (options.url === undefined) {
    if (options.key !== undefined) throw new UsageError('--key goes with --url (a direct import needs no key)');
    if (args.length !== 2) throw new UsageError(`${command} needs a shop id and a file`);
  } else {
    if (args.length < 1 || args.length > 2) throw new UsageError(`${command} --url needs a file (and optionally the shop id)`);
    if (!/^https?:\/\/[^/]/i.test(options.url) || !URL.canParse(options.url)) throw new UsageError(`--url must be an http:// or https:// address, not "${options.url}"`);
    if (options.key === undefined || !options.key.startsWith('sk_')) throw new UsageError('--url needs --key with the shop\'s secret key (sk_…)');
  }
  const file = args[args.length - 1]!;
  const shopId = args.length === 2 ? args[0] : undefined;
  const format = kind === 'catalog' ? await catalogFormatOf(file) : formatOf(file);
  if (format === undefined) {
    throw new Error(`cannot tell the format of ${file}: name it .json, .ndjson/.jsonl or .csv (optionally .gz)${kind === 'catalog' ? ', or give a product feed (Google Merchant Center XML or tab-separated)' : ''}`);
  }
  if (kind === 'events' && (format === 'feed-xml' || format === 'feed-tsv')) throw new Error(`${file} is named as a product feed: events are read from .json, .ndjson/.jsonl or .csv`);
  let input: ImportInput;
  try {
    input = await openInput(file);
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (options.url !== undefined) {
    const sink = new HttpSink(options.url, options.key!);
    // The key names the shop; a shop id given beside it must be that one (not another shop's data).
    if (shopId !== undefined) {
      const keyShop = await sink.shopId().catch((error: unknown) => {
        input.stream.destroy();
        throw error;
      });
      if (keyShop !== shopId) {
        input.stream.destroy();
        throw new Error(`--key belongs to shop "${keyShop}" on ${options.url}, not "${shopId}": nothing was imported`);
      }
    }
    const summary = await run(sink, undefined, kind, file, format, input);
    return report(file, summary, undefined);
  }
  return withDataDir(options.dataDir, async (dbs, shops) => {
    if (shops.getShop(shopId!) === undefined) {
      input.stream.destroy();
      throw new Error(`unknown shop "${shopId}" in ${options.dataDir} (create it with shop create ${shopId}, or import into a server elsewhere with --url and its secret key)`);
    }
    checkLogLayout(dbs);
    const summary = await run(new DirectSink(dbs, loadConfig().dedupTtlMs, await ensureLogId(dbs)), shopId, kind, file, format, input);
    return report(file, summary, directImportNote(dbs.path, kind === 'events' ? 'events' : 'products'));
  });
}

function run(sink: DirectSink | HttpSink, shopId: string | undefined, kind: ImportKind, file: string, format: FileFormat, input: ImportInput): Promise<ImportSummary> {
  return importFile({ sink, shopId, kind, file, format, input, progress: progressBar(kind, input.size) });
}

function report(file: string, summary: ImportSummary, note: string | undefined): number {
  console.log(`${file}: ${summary.records} records in ${summary.seconds} s: ${summary.accepted} stored, ${summary.duplicates} duplicates, ${summary.rejected} rejected`);
  if (summary.stopped !== undefined) {
    console.error(`error: ${summary.stopped.reason}`);
    console.error(`the import stopped: records from ${file}:${summary.stopped.line} on were not imported (events with a messageId may be imported again safely)`);
    return 1;
  }
  if (note !== undefined && summary.accepted + summary.duplicates > 0) console.log(note);
  return summary.rejected > 0 ? 1 : 0;
}

/**
 * A direct import may run beside a server (it does not take the server's lock): LMDB lets both
 * write, and the server replays by log position, so these records reach its models at its next
 * start at the latest. Through --url they apply at once.
 */
function directImportNote(dbPath: string, what: 'events' | 'products'): string {
  const server = readLockHolder(dbPath);
  if (server === undefined) return `stored in LMDB: a server started on this data dir serves these ${what} (to apply them to a running server at once, import with --url)`;
  return `stored in LMDB beside the server running on this data dir (pid ${server.pid}): its models get these ${what} at its next start at the latest; to apply them at once, import with --url`;
}
