// GET /widget.js — the storefront widget: dist/widget/widget.js (built by `npm run build`, see
// scripts/build-widget.mjs), read once with its gzip form and kept in memory for the process.
import { AppError } from '../../errors.js';
import { acceptsGzip, distPath, loadBundle, type Bundle } from '../dist-bundle.js';
import type { Handler } from '../../transport/route.js';

const WIDGET = 'widget/widget.js';

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
  return distPath(WIDGET);
}

export function getWidget(): Handler {
  let bundle: Bundle | undefined;
  return (exchange) => {
    bundle ??= loadBundle(WIDGET);
    if (bundle === undefined) throw new AppError('not_found', 'the widget is not built: run npm run build');
    const gzip = acceptsGzip(exchange.request.headers?.['accept-encoding']);
    exchange.send(200, 'application/javascript; charset=utf-8', gzip ? bundle.gzip : bundle.plain, gzip ? GZIP_HEADERS : HEADERS);
  };
}
