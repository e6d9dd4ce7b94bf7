// Builds with tspc (TypeScript + the typia transform) when dist/ is missing or older than a source,
// and the browser bundles (esbuild: the storefront widget, the dashboard's script and stylesheet)
// when missing or older than their sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const marker = path.join(root, 'dist', 'src', 'main.js');

/** The newest mtime of the .ts (and .css) files under `dir`, not looking into the `skip` folders. */
function newestSource(dir, skip = []) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (skip.includes(full)) continue;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full, skip));
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.css')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const widgetDir = path.join(root, 'src', 'widget');
const widgetBundle = path.join(root, 'dist', 'widget', 'widget.js');
const dashboardDir = path.join(root, 'src', 'dashboard', 'client');
const dashboardBundle = path.join(root, 'dist', 'dashboard', 'app.js');
const inputs = ['src', 'bench'].map((d) => path.join(root, d)).filter(existsSync);
const browserDirs = [widgetDir, dashboardDir];
const stale = !existsSync(marker) || Math.max(...inputs.map((dir) => newestSource(dir, browserDirs)), statSync(path.join(root, 'tsconfig.json')).mtimeMs) > statSync(marker).mtimeMs;
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
if (!existsSync(dashboardBundle) || newestSource(dashboardDir) > statSync(dashboardBundle).mtimeMs) {
  console.log('building the dashboard (esbuild)…');
  const { buildDashboard } = await import('./build-dashboard.mjs');
  console.log(await buildDashboard());
}
