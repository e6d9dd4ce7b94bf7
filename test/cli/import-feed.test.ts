// A Google Merchant Center product feed imported with `import catalog`, as a merchant runs it: the
// built CLI on a 10,000-item feed (variants of a product listed together), XML and tab-separated,
// recognised by their content whatever the file's name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { cli, cliSync, stored } from '../support/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pairwise-feed-'));
const ITEMS = 10_000;

/** 10,000 items: products of 1 to 4 variants (item_group_id), every 97th variant out of stock, and one bad price. */
function items(): { id: string; group: string; title: string; price: string; availability: string }[] {
  const list = [];
  let product = 0;
  while (list.length < ITEMS) {
    const variants = 1 + (product % 4);
    for (let v = 0; v < variants && list.length < ITEMS; v++) {
      const n = list.length;
      list.push({ id: `P${product}-${v}`, group: `P${product}`, title: `Product ${product} - size ${v}`, price: n === 5000 ? '12,50 EUR' : `${10 + v}.00 USD`, availability: n % 97 === 0 ? 'out_of_stock' : 'in_stock' });
    }
    product++;
  }
  return list;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const feed = items();
const products = new Set(feed.map((i) => i.group)).size;

function xml(): string {
  const body = feed
    .map((i) => `<item><g:id>${i.id}</g:id><g:item_group_id>${i.group}</g:item_group_id><g:title>${escape(i.title)}</g:title><g:link>https://shop.example/products/${i.group.toLowerCase()}</g:link><g:price>${i.price}</g:price><g:availability>${i.availability}</g:availability><g:brand>Acme &amp; Sons</g:brand><g:product_type>Home &gt; Decor</g:product_type></item>`)
    .join('\n');
  return `<?xml version="1.0"?>\n<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel><title>Shop</title>\n${body}\n</channel></rss>\n`;
}

function tsv(): string {
  return ['id\titem_group_id\ttitle\tprice\tavailability\tbrand', ...feed.map((i) => `${i.id}\t${i.group}\t${i.title}\t${i.price}\t${i.availability}\tAcme`)].join('\n') + '\n';
}

describe('cli import catalog: product feeds', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['xml', 'feed.xml', () => Buffer.from(xml())],
    ['tsv, gzipped, named .txt.gz', 'feed.txt.gz', () => gzipSync(tsv())],
    ['xml named .csv', 'export.csv', () => Buffer.from(xml())],
  ])('When a 10,000-item feed (%s) is imported, then each product is stored once with its variants merged, and the bad item is refused at its line', async (_, name, content) => {
    const dataDir = path.join(dir, name.replace(/\W/g, '-'));
    expect(cliSync(['shop', 'create', 'feed', '--data-dir', dataDir]).status).toBe(0);
    const file = path.join(dir, name);
    writeFileSync(file, content());
    const result = await cli(['import', 'catalog', 'feed', file, '--data-dir', dataDir]);
    expect(result.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: item P\\d+-\\d: price "12,50 EUR" has a comma for its decimals`));
    expect(result.status).toBe(1);
    const data = await stored(dataDir, 'feed');
    // The product whose one variant had the bad price is still stored from its other variants, if any.
    const badGroup = feed[5000]!.group;
    const badAlone = feed.filter((i) => i.group === badGroup).length === 1;
    expect(data.products).toHaveLength(badAlone ? products - 1 : products);
    const p0 = data.products.find((p) => p.id === 'P3')!;
    expect(p0).toMatchObject({ price: '10.00', available: true });
    expect(p0.title).toBe('Product 3 - size 0');
  });
});
