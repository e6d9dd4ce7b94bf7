// npm run cli -- compact: the data dir's LMDB file rewritten with only the pages in use, so nothing
// erased or pruned is left in its free pages (store/compaction.ts). The server must be stopped.
import path from 'node:path';
import { compactDatabase } from '../store/compaction.js';

const MB = 1024 * 1024;

export async function compactCommand(dataDir: string): Promise<number> {
  const { before, after } = await compactDatabase(path.join(dataDir, 'db'), dataDir);
  console.log(`compacted ${path.join(dataDir, 'db', 'data.mdb')}: ${(before / MB).toFixed(1)} MB → ${(after / MB).toFixed(1)} MB`);
  return 0;
}
