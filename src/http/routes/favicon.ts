// GET /favicon.ico — the icon browsers ask every host for (and the dashboard links): a small SVG,
// so that the request is answered instead of logged as a 404. Browsers go by the content type, not
// the path's extension.
import type { Handler } from '../../transport/route.js';

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3559e0"/><circle cx="12" cy="16" r="6" fill="#fff"/><circle cx="21" cy="16" r="6" fill="#fff" fill-opacity=".6"/></svg>`;

const HEADERS = { 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' };

export function getFavicon(): Handler {
  return (exchange) => exchange.send(200, 'image/svg+xml', ICON, HEADERS);
}
