// Builds with tspc (TypeScript + the typia transform) when dist/ is missing or older than a source.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const marker = path.join(root, 'dist', 'src', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const inputs = ['src', 'bench'].map((d) => path.join(root, d)).filter(existsSync);
const stale = !existsSync(marker) || Math.max(...inputs.map(newestSource), statSync(path.join(root, 'tsconfig.json')).mtimeMs) > statSync(marker).mtimeMs;
if (stale) {
  console.log('building (tspc)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'ts-patch', 'bin', 'tspc.js'), '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
}
