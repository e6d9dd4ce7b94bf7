// What the platforms' sync commands share: the sink a sync writes through (the import's, into the
// data dir or a running server), and its place kept in a JSON file in the data dir.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SyncCounts, SyncSink, SyncStateStore } from '../integrations/sync-sink.js';
import { progressBar, type Progress } from './progress.js';
import { loadConfig } from '../config.js';
import { checkLogLayout, ensureLogId } from '../store/database.js';
import { withDataDir } from './open-data-dir.js';
import { DirectSink, HttpSink, type ImportSink } from './sinks.js';
import { UsageError } from './usage.js';

/** A sync's state in a JSON file, replaced whole (write, then rename) so an interruption never leaves half of one. */
export function fileStateStore<S>(file: string): SyncStateStore<S> {
  return {
    load() {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as S;
      } catch {
        return undefined;
      }
    },
    save(state) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(state));
      renameSync(`${file}.tmp`, file);
    },
  };
}

/** The import sink as a sync writes through it (the shop named by the key through the API). */
export function syncSink(sink: ImportSink, shopId: string | undefined): SyncSink {
  return {
    eventsPerChunk: sink.eventsPerChunk,
    products: (records) => sink.products(shopId, records),
    events: (records) => sink.events(shopId, records),
  };
}


export interface SyncTarget {
  dataDir: string;
  /** A running Pairwise server to write through, and the shop's secret key there. */
  server?: string;
  serverKey?: string;
  /** How the command line names those two, for its messages ("--url and --key"). */
  serverFlags: string;
}

/**
 * Runs `sync` with the sink it writes through: a running server's API when `target.server` is given
 * (the key's shop must be `shopId`), else the data dir (the shop must be there).
 */
export async function withSyncSink(target: SyncTarget, shopId: string, sync: (sink: SyncSink) => Promise<number>): Promise<number> {
  const [serverFlag, keyFlag] = target.serverFlags.split(' and ');
  if (target.server !== undefined) {
    if (!/^https?:\/\/[^/]/i.test(target.server) || !URL.canParse(target.server)) throw new UsageError(`${serverFlag} must be an http:// or https:// address, not "${target.server}"`);
    if (target.serverKey === undefined || !target.serverKey.startsWith('sk_')) throw new UsageError(`${serverFlag} needs ${keyFlag} with the shop's secret key (sk_…)`);
    const sink = new HttpSink(target.server, target.serverKey);
    const keyShop = await sink.shopId();
    if (keyShop !== shopId) throw new Error(`${keyFlag} belongs to shop "${keyShop}" on ${target.server}, not "${shopId}": nothing was synced`);
    return sync(syncSink(sink, undefined));
  }
  if (target.serverKey !== undefined) throw new UsageError(`${keyFlag} goes with ${serverFlag} (a sync into the data dir needs no key)`);
  return withDataDir(target.dataDir, async (dbs, shops) => {
    if (shops.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}" in ${target.dataDir} (create it with shop create ${shopId}, or sync into a server elsewhere with ${target.serverFlags} and its secret key)`);
    checkLogLayout(dbs);
    return sync(syncSink(new DirectSink(dbs, loadConfig().dedupTtlMs, await ensureLogId(dbs)), shopId));
  });
}

/** The hooks a sync reports through: refusals (printed above the bar) and progress by phase. */
export interface SyncHooks {
  report(line: string): void;
  progress(phase: string, done: number, total: number | undefined): void;
}

export interface SyncSummary {
  /** The store, as the summary's first line names it. */
  source: string;
  /** e.g. "Admin API": the requests line says "(12 Admin API requests)". */
  api: string;
  requests: () => number;
  days: number;
  /** Why an order gives no purchases, on this platform. */
  skipped: string;
}

/**
 * Runs `sync` with a progress bar per phase on stderr and prints its summary; resolves with the exit
 * status (1 when anything was refused). A failure says that what was read is kept and how to go on.
 */
export async function reportedSync(summary: SyncSummary, sync: (hooks: SyncHooks) => Promise<{ counts: SyncCounts; resumed: boolean; extra?: string[] }>): Promise<number> {
  let bar: { phase: string; progress: Progress } | undefined;
  const lines: string[] = [];
  const started = performance.now();
  try {
    const { counts, resumed, extra } = await sync({
      report: (line) => (bar === undefined ? lines.push(line) : bar.progress.log(line)),
      progress(phase, done, total) {
        if (bar?.phase !== phase) {
          bar?.progress.stop();
          bar = { phase, progress: progressBar(phase.padEnd(18), total ?? 0) };
        }
        bar.progress.update(done, total === undefined ? 0 : done);
      },
    });
    bar?.progress.stop();
    for (const line of lines) console.error(line);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${summary.source}: ${resumed ? 'resumed and ' : ''}synced in ${seconds} s (${summary.requests()} ${summary.api} requests)`);
    for (const line of extra ?? []) console.log(`  ${line}`);
    console.log(`  products: ${counts.products} stored, ${counts.productsUnchanged} unchanged`);
    console.log(`  orders (last ${summary.days} days): ${counts.orders} read, ${counts.ordersSkipped} without purchases (${summary.skipped})`);
    console.log(`  purchases: ${counts.purchases} stored, ${counts.purchasesAlreadyStored} already stored`);
    if (counts.refused > 0) console.log(`  refused: ${counts.refused} (see above)`);
    return counts.refused > 0 ? 1 : 0;
  } catch (error) {
    bar?.progress.stop();
    throw new Error(`${(error as Error).message}\nthe sync stopped; what was read so far is stored: run the same command again to go on from there`);
  }
}
