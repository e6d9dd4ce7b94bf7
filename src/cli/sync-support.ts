// What the platforms' sync commands share: the sink a sync writes through (the import's, into the
// data dir or a running server), and its place kept in a JSON file in the data dir.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SyncSink, SyncStateStore } from '../integrations/sync-sink.js';
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
