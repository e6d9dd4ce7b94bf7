// `npm run bench`: every benchmark script in turn, each in its own process, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCHMARKS = ['http.js', 'ws.js'];
const here = path.dirname(fileURLToPath(import.meta.url));

for (const script of BENCHMARKS) {
  console.log(`\n=== bench/${script.replace(/\.js$/, '.ts')} ===`);
  const result = spawnSync(process.execPath, [path.join(here, script)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
