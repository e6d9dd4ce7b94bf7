// Bundles the storefront widget (src/widget/main.ts) into dist/widget/widget.js with esbuild: one
// self-contained, minified IIFE for browsers, served by the server as /widget.js.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const WIDGET_BUNDLE = path.join(root, 'dist', 'widget', 'widget.js');

export async function buildWidget() {
  await build({
    entryPoints: [path.join(root, 'src', 'widget', 'main.ts')],
    outfile: WIDGET_BUNDLE,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // Browsers since 2021 (native private class members; newer syntax is compiled down).
    target: ['chrome91', 'edge91', 'firefox90', 'safari15'],
    minify: true,
    legalComments: 'none',
    tsconfig: path.join(root, 'src', 'widget', 'tsconfig.json'),
    logLevel: 'warning',
  });
  const bytes = readFileSync(WIDGET_BUNDLE);
  return { bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = await buildWidget();
  console.log(`dist/widget/widget.js: ${size.bytes} bytes, ${size.gzipped} gzipped`);
}
