// The dashboard's page frame: one stylesheet inline (no external requests), readable on a laptop
// and a phone. Referrer policy same-origin, not no-referrer: under no-referrer Chrome sends
// `Origin: null` on the page's own form posts, which the same-origin check must refuse.
import { html, raw, type Html } from '../../html.js';

const STYLES = raw(`
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; background: #f5f6f8; }
  body { margin: 0; }
  header { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; justify-content: space-between; padding: .75rem 1.25rem; background: #1d2330; color: #fff; }
  header form { margin: 0; }
  main { max-width: 72rem; margin: 0 auto; padding: 1.25rem; }
  .sign-in { max-width: 26rem; margin-top: 10vh; background: #fff; border-radius: .5rem; box-shadow: 0 1px 3px #0002; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input { box-sizing: border-box; width: 100%; padding: .6rem; font: inherit; border: 1px solid #b8bec9; border-radius: .35rem; }
  button { margin-top: 1rem; padding: .55rem 1.1rem; font: inherit; font-weight: 600; border: 0; border-radius: .35rem; background: #3559e0; color: #fff; cursor: pointer; }
  header button { margin: 0; background: #ffffff22; }
  .problem { color: #a4161a; background: #fde8e8; padding: .5rem .75rem; border-radius: .35rem; }
  code { font-size: .95em; }
`);

export function dashboardLayout(title: string, body: Html, head?: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<title>${title} · Pairwise</title>
<style>${STYLES}</style>
${head ?? ''}
</head>
<body>
${body}
</body>
</html>`;
}
