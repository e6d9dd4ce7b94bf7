// GET / — where a newcomer's browser lands first: the demo storefront when it is on, else a small
// page that points to what this service answers (health, the API description, the docs).
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../../transport/route.js';

const HTML = 'text/html; charset=utf-8';

const INDEX_PAGE = 
`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>Pairwise</title>
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1.5rem;color:#23211d}a{color:#2f5d50}code{background:#f3efe8;padding:0 .25em;border-radius:4px}</style>
</head><body>
<h1>Pairwise</h1>
<p>A real-time product recommendation service. Everything it serves lives under <code>/api</code> and needs an API key
(<code>Authorization: Bearer pk_…</code> or <code>sk_…</code>).</p>
<ul>
<li><a href="/healthz">/healthz</a> — is it up (no key)</li>
<li><a href="/api/openapi.json">/api/openapi.json</a> — the API description</li>
<li>The docs: <code>README.md</code> (quick start) and <code>docs/api.md</code> (every route) in the Pairwise repository</li>
</ul>
<p>The demo storefront is off (<code>PAIRWISE_DEMO=0</code>); with it on, this address opens it.</p>
</body></html>`;

export function getRoot(deps: HttpDeps): Handler {
  if (deps.demo !== undefined) {
    // 302, not 301: whether the demo is on is configuration, and a browser caches a 301 for good.
    return (exchange) => exchange.send(302, HTML, '<a href="/demo">/demo</a>', { location: '/demo', 'cache-control': 'no-store' });
  }
  return (exchange) => exchange.send(200, HTML, INDEX_PAGE, { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
}
