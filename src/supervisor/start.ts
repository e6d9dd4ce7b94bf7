// `node dist/src/main.js` with PAIRWISE_SERVERS > 1: this process takes the data dir's lock, checks
// that the port is free, and runs the servers (supervisor.ts).
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Config } from '../config.js';
import { StartupError } from '../errors.js';
import { lockDataDir } from '../store/data-dir-lock.js';
import { openDatabases } from '../store/database.js';
import { supervise } from './supervisor.js';
import { restoreNodeBackup } from '../store/jetstream/replicated-log.js';
import type { Log } from '../observability/log.js';

/** Whether nothing listens on the port now (the servers then share it with SO_REUSEPORT, which would let a stranger in). */
function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Runs the supervisor of `config.servers` servers, each started from `entry` (the main module). */
export async function startSupervisor(config: Config, entry: string, log: Log): Promise<void> {
  // A new node of a replicated log starts from the latest node backup (before LMDB creates its file).
  if (config.nats !== undefined) await restoreNodeBackup(config.nats, config.dbPath, log);
  mkdirSync(config.dbPath, { recursive: true });
  const dbs = openDatabases(config.dbPath);
  let lock;
  try {
    lock = lockDataDir(dbs.root, config.dbPath, config.dataDir);
  } catch (error) {
    console.error(error instanceof StartupError ? `not started: ${error.message}` : String(error));
    process.exit(1);
  }
  if (!(await portIsFree(config.host, config.port))) {
    console.error(`not started: cannot listen on ${config.host}:${config.port}: the port is taken (another Pairwise server?) or ${config.host} is not an address of this machine`);
    lock.release();
    process.exit(1);
  }
  log(`Pairwise: ${config.servers} server processes on port ${config.port}, supervised by pid ${process.pid}`, { event: 'start', servers: config.servers, host: config.host, port: config.port, dataDir: config.dataDir });
  await supervise(config, { entry, log, banner: (text) => console.log(text), release: () => lock.release() });
}
