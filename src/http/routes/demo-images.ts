// GET /demo/images/:id.svg — the demo store's product pictures: drawn placeholders (a colour per
// product, its title), since the demo catalog comes from a dataset that has no images.
import { AppError } from '../../errors.js';
import { DEMO_SHOP } from '../../demo/seed-demo-store.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../../transport/route.js';

const PALETTE = ['#f4d6cc', '#d8e2dc', '#ffe5d9', '#cfe1f2', '#e2ece9', '#fde2e4', '#e9edc9', '#dfe7fd', '#f0efeb', '#fcd5ce'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Splits a title into at most 4 lines of about 18 characters. */
function lines(title: string): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/)) {
    if (line !== '' && line.length + word.length + 1 > 18) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out.slice(0, 4);
}

export function productSvg(id: string, title: string): string {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  const text = lines(title)
    .map((line, i, all) => `<text x="200" y="${200 + (i - (all.length - 1) / 2) * 34}" text-anchor="middle" font-family="Georgia, serif" font-size="28" fill="#3d3a36">${escapeXml(line)}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" role="img" aria-label="${escapeXml(title)}"><rect width="400" height="400" fill="${PALETTE[hash % PALETTE.length]}"/><circle cx="200" cy="200" r="150" fill="#ffffff" opacity="0.45"/>${text}</svg>`;
}

export function getDemoImage(deps: HttpDeps): Handler {
  return (call) => {
    const id = /^([A-Za-z0-9._-]{1,64})\.svg$/.exec(call.params[0] ?? '')?.[1];
    const product = id === undefined ? undefined : deps.catalog.get(DEMO_SHOP, id);
    if (product === undefined) throw new AppError('not_found', 'no such image');
    call.send(200, 'image/svg+xml', productSvg(product.id, product.title), { 'cache-control': 'public, max-age=86400' });
  };
}
