// GET /dashboard/app.js and /dashboard/app.css: the dashboard page's script (src/dashboard/client,
// uPlot bundled in) and stylesheet (uPlot's), built into dist/dashboard/ by scripts/build-dashboard.mjs
// and served from this origin only (the page's CSP allows no other).
import { AppError } from '../../errors.js';
import { acceptsGzip, loadBundle, type Bundle } from '../dist-bundle.js';
import type { Handler } from '../../transport/route.js';

/** No CORS header: only the dashboard's own page loads these. Short caching, as the widget. */
const HEADERS = { 'cache-control': 'public, max-age=300', vary: 'Accept-Encoding', 'x-content-type-options': 'nosniff' };
const GZIP_HEADERS = { ...HEADERS, 'content-encoding': 'gzip' };

function asset(file: string, contentType: string): Handler {
  let bundle: Bundle | undefined;
  return (exchange) => {
    bundle ??= loadBundle(file);
    if (bundle === undefined) throw new AppError('not_found', 'the dashboard is not built: run npm run build');
    const gzip = acceptsGzip(exchange.request.headers?.['accept-encoding']);
    exchange.send(200, contentType, gzip ? bundle.gzip : bundle.plain, gzip ? GZIP_HEADERS : HEADERS);
  };
}

export const getDashboardScript = (): Handler => asset('dashboard/app.js', 'application/javascript; charset=utf-8');
export const getDashboardStyles = (): Handler => asset('dashboard/app.css', 'text/css; charset=utf-8');
