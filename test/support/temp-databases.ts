// A real LMDB environment in a temp dir for store-level tests, and its cleanup.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabases, type Databases } from '../../src/store/database.js';
import { tempDataDir } from './service.js';

export function tempDatabases(): { dbs: Databases; cleanup: () => Promise<void> } {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  return {
    dbs,
    async cleanup() {
      await dbs.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
