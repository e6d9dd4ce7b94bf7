// Bundles the dashboard page's script (src/dashboard/client/main.ts, uPlot included) and stylesheet
// (src/dashboard/client/app.css, uPlot's CSS included) into dist/dashboard/ with esbuild, served by
// the server as /dashboard/app.js and /dashboard/app.css: nothing is loaded from another origin.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const DASHBOARD_DIR = path.join(root, 'dist', 'dashboard');
const client = path.join(root, 'src', 'dashboard', 'client');

export async function buildDashboard() {
  const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning' };
  await build({
    ...common,
    entryPoints: [path.join(client, 'main.ts')],
    outfile: path.join(DASHBOARD_DIR, 'app.js'),
    format: 'iife',
    platform: 'browser',
    target: ['chrome91', 'edge91', 'firefox90', 'safari15'],
    tsconfig: path.join(client, 'tsconfig.json'),
  });
  await build({ ...common, entryPoints: [path.join(client, 'app.css')], outfile: path.join(DASHBOARD_DIR, 'app.css') });
  const size = (name) => {
    const bytes = readFileSync(path.join(DASHBOARD_DIR, name));
    return `${name} ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`;
  };
  return `dist/dashboard/: ${size('app.js')}; ${size('app.css')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await buildDashboard());
