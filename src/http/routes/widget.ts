// GET /widget.js — the storefront widget: dist/widget/widget.js (built by `npm run build`, see
// scripts/build-widget.mjs), read once with its gzip form and kept in memory for the process.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { AppError } from '../../errors.js';
import type { Handler } from '../route.js';

interface Bundle {
  plain: Buffer;
  gzip: Buffer;
}

/** A stable URL merchants paste once: short caching, so a new build reaches shops within minutes. */
const HEADERS = {
  'cache-control': 'public, max-age=300',
  vary: 'Accept-Encoding',
  'x-content-type-options': 'nosniff',
  // Lets a merchant add crossorigin="anonymous" to the tag to see the widget's errors.
  'access-control-allow-origin': '*',
};
const GZIP_HEADERS = { ...HEADERS, 'content-encoding': 'gzip' };

/** dist/widget/widget.js of the package, from src/ (vitest) or dist/src/ (built). */
export function widgetBundlePath(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'dist', 'widget', 'widget.js');
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

function load(): Bundle | undefined {
  const file = widgetBundlePath();
  if (file === undefined) return undefined;
  const plain = readFileSync(file);
  return { plain, gzip: gzipSync(plain, { level: 9 }) };
}

export function getWidget(): Handler {
  let bundle: Bundle | undefined;
  return (exchange) => {
    bundle ??= load();
    if (bundle === undefined) throw new AppError('not_found', 'the widget is not built: run npm run build');
    const gzip = /\bgzip\b/i.test(exchange.request.headers?.['accept-encoding'] ?? '');
    exchange.send(200, 'application/javascript; charset=utf-8', gzip ? bundle.gzip : bundle.plain, gzip ? GZIP_HEADERS : HEADERS);
  };
}
