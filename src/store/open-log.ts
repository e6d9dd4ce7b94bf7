// The shop log a server process writes and applies: past one machine (PAIRWISE_NATS) a JetStream
// stream, materialized into the data dir's LMDB before the models are built from it; on one machine
// the data dir's LMDB. Opened after the migrations of the indexes beside it (which do nothing once done).
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { backfillCustomerIndex } from './customer-index.js';
import { ensureLogId, type Databases } from './database.js';
import { openReplicatedLog, type ReplicatedLog } from './jetstream/replicated-log.js';
import { backfillSessionIndex } from './session-index.js';
import { LmdbShopLog, type ShopLog } from './shop-log.js';
import type { Log } from '../observability/log.js';

export interface OpenedLog {
  /** The data dir's LMDB log (the one a replicated log materializes into). */
  local: LmdbShopLog;
  /** The log every write goes through: the replicated one when there is one. */
  shopLog: ShopLog;
  replicated: ReplicatedLog | undefined;
  /** The log's id, which write positions carry (api/position-token.ts). */
  logId: string;
}

/** `opened`: where the closer of what this opened beside the data dir goes, run if the start fails. */
export async function openShopLog(config: Config, dbs: Databases, log: Log, opened: (() => Promise<void>)[]): Promise<OpenedLog> {
  const local = new LmdbShopLog(dbs, config.storefrontQuota);
  let replicated: ReplicatedLog | undefined;
  if (config.nats !== undefined) {
    replicated = await openReplicatedLog(config.nats, dbs, local, config.retentionMs, log, `pairwise ${hostname()} pid ${process.pid}`);
    opened.push(() => replicated!.close());
    await replicated.caughtUp(log);
  }
  const logId = replicated?.logId ?? (await ensureLogId(dbs));
  const indexed = await backfillCustomerIndex(dbs);
  if (indexed > 0) log(`indexed ${indexed} events of customers stored before the customer index existed`, { event: 'index-built', index: 'customers', entries: indexed });
  const sessionRows = await backfillSessionIndex(dbs);
  if (sessionRows > 0) log(`indexed the sessions of the log entries stored before the session index existed (${sessionRows} rows)`, { event: 'index-built', index: 'sessions', entries: sessionRows });
  return { local, shopLog: replicated?.log ?? local, replicated, logId };
}
