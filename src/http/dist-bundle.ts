// The browser bundles esbuild writes into dist/ at build time (the storefront widget, the dashboard's
// script and stylesheet): found from src/ (vitest) or dist/src/ (built), read once with their gzip
// form and kept in memory for the process.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface Bundle {
  plain: Buffer;
  gzip: Buffer;
}

/** The path of dist/<relative> of the package; undefined when it is not built. */
export function distPath(relative: string): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'dist', relative);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

export function loadBundle(relative: string): Bundle | undefined {
  const file = distPath(relative);
  if (file === undefined) return undefined;
  const plain = readFileSync(file);
  return { plain, gzip: gzipSync(plain, { level: 9 }) };
}

/** Whether the request's Accept-Encoding takes gzip. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return /\bgzip\b/i.test(acceptEncoding ?? '');
}
