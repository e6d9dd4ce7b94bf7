// Runs the built CLI (dist/) as a child process, and reads what an import left in a data dir.
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import type { TrackedEvent } from '../../src/api/event.js';
import type { Product } from '../../src/engine/product.js';
import { CatalogStore } from '../../src/store/catalog-store.js';
import { openDatabases } from '../../src/store/database.js';
import { closeDatabases } from '../../src/store/durable-commit.js';
import { storedEvents } from './stored-events.js';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

const CLI = path.resolve('dist/src/cli/main.js');

/** For commands that need no server in this process (it would block its event loop). */
export function cliSync(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: options.cwd, env: { ...process.env, ...options.env } });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** For imports into a server running in this process. */
export function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** What a data dir holds for a shop: its events in log order and its products. */
export async function stored(dataDir: string, shopId: string): Promise<{ events: TrackedEvent[]; products: Product[] }> {
  const dbs = openDatabases(path.join(dataDir, 'db'));
  try {
    return {
      events: storedEvents(dbs, shopId).map((e) => e.event),
      products: [...new CatalogStore(dbs).readShop(shopId)],
    };
  } finally {
    await closeDatabases(dbs);
  }
}

/** The `file:line: reason` lines an import printed, as [line, reason] pairs. */
export function refusals(stderr: string, file: string): [number, string][] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith(`${file}:`))
    .map((l) => {
      const m = /^:(\d+): (.*)$/.exec(l.slice(file.length))!;
      return [Number(m[1]), m[2]!];
    });
}
