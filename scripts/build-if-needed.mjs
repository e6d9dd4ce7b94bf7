// Builds with tspc (TypeScript + the typia transform) when dist/ is missing or older than a source,
// and the storefront widget bundle (esbuild) when it is missing or older than src/widget/.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const marker = path.join(root, 'dist', 'src', 'main.js');

function newestSource(dir, skip) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (full === skip) continue;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full, skip));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const widgetDir = path.join(root, 'src', 'widget');
const widgetBundle = path.join(root, 'dist', 'widget', 'widget.js');
const inputs = ['src', 'bench'].map((d) => path.join(root, d)).filter(existsSync);
const stale = !existsSync(marker) || Math.max(...inputs.map((dir) => newestSource(dir, widgetDir)), statSync(path.join(root, 'tsconfig.json')).mtimeMs) > statSync(marker).mtimeMs;
if (stale) {
  console.log('building (tspc)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'ts-patch', 'bin', 'tspc.js'), '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
}
if (!existsSync(widgetBundle) || newestSource(widgetDir) > statSync(widgetBundle).mtimeMs) {
  console.log('building the widget (esbuild)…');
  const { buildWidget } = await import('./build-widget.mjs');
  const size = await buildWidget();
  console.log(`dist/widget/widget.js: ${size.bytes} bytes, ${size.gzipped} gzipped`);
}
