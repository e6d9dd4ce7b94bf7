import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseCatalog } from '../../../src/api/product.js';
import { feedPrice, feedRecord, type FeedRecord } from '../../../src/integrations/feeds/feed-item.js';
import { FeedGroups } from '../../../src/integrations/feeds/feed-groups.js';
import { feedRecords, sniffFeed, type FeedFormat, type FeedOutput } from '../../../src/integrations/feeds/feed-records.js';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/feeds');
const NOW = Date.UTC(2026, 0, 1);

async function read(name: string, format: FeedFormat): Promise<FeedOutput[]> {
  const out: FeedOutput[] = [];
  for await (const record of feedRecords(createReadStream(path.join(DIR, name)), format)) out.push(record);
  return out;
}

async function readText(text: string, format: FeedFormat): Promise<FeedOutput[]> {
  const out: FeedOutput[] = [];
  // One character a chunk: items and tags split across chunks anywhere.
  for await (const record of feedRecords(Readable.from(text.split('')), format)) out.push(record);
  return out;
}

describe('feedRecords', () => {
  test('When the documented RSS feed is read, then each product is a catalog record, variants merged, Shopify ids mapped, and each bad item refused at its line', async () => {
    const out = await read('products.xml', 'feed-xml');
    const records = out.filter((r) => r.error === undefined).map((r) => r.value);
    expect(records).toEqual([
      {
        id: 'TV_123456',
        title: 'LG 22LB4510 - 22" LED TV - 1080p (FullHD)',
        handle: 'lg-22lb4510',
        image: 'https://images.example.com/TV_123456.png',
        // The g:price inside g:shipping is not the product's.
        price: '159.00',
        compareAtPrice: null,
        vendor: 'LG',
        productType: 'Flat Panel TVs',
        tags: [],
        collections: ['consumer-electronics', 'consumer-electronics-tvs', 'consumer-electronics-tvs-flat-panel-tvs'],
        available: true,
        attributes: { googleProductCategory: 'Electronics > Video > Televisions > Flat Panel Televisions' },
      },
      // Two sizes, one product: the one in stock shows its sale price.
      expect.objectContaining({ id: 'CLO-29473856', title: "Tenn Cutting Edge Men's Cycling Jersey - M", price: '29.99', compareAtPrice: '33.99', available: true, attributes: { customLabel0: 'summer' } }),
      expect.objectContaining({ id: 'gid://shopify/Product/7412345678901', title: 'Linen Apron - Natural', handle: 'linen-apron', vendor: 'Hearth & Co' }),
    ]);
    expect(out.filter((r) => r.error !== undefined).map((r) => [r.line, r.error])).toEqual([
      [64, 'item BAD-PRICE: price "12,50 EUR" has a comma for its decimals: write "15.00 EUR"'],
      [70, 'no id'],
      [74, 'item NO-CURRENCY: price "9.99" is not an amount and its currency, such as "15.00 USD"'],
    ]);
    // Every record is one the catalog takes.
    for (const record of records) {
      const parsed = parseCatalog({ products: [record] }, 'shopify', NOW);
      expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    }
  });

  test('When the same feed comes tab-separated or as Atom, then it gives the same kind of records', async () => {
    const tsv = await read('products.tsv', 'feed-tsv');
    expect(tsv.filter((r) => r.error === undefined).map((r) => (r.value as { id: string; price: string }).id)).toEqual(['TV_123456', 'CLO-1']);
    expect(tsv.find((r) => (r.value as { id?: string })?.id === 'CLO-1')!.value).toMatchObject({ price: '29.99', compareAtPrice: '33.99', available: true, handle: 'jersey' });
    expect(tsv.filter((r) => r.error !== undefined)).toEqual([{ line: 5, error: 'item BAD: price "12,50 EUR" has a comma for its decimals: write "15.00 EUR"' }]);
    expect((await read('atom.xml', 'feed-xml')).map((r) => r.value)).toEqual([expect.objectContaining({ id: 'MUG-1', title: 'Stoneware Mug', handle: 'stoneware-mug', price: '12.00', vendor: 'Juniper' })]);
  });

  test('When the bytes arrive a character at a time, then the records are the same', async () => {
    const { readFileSync } = await import('node:fs');
    for (const [name, format] of [['products.xml', 'feed-xml'], ['products.tsv', 'feed-tsv']] as const) {
      expect(await readText(readFileSync(path.join(DIR, name), 'utf8'), format)).toEqual(await read(name, format));
    }
  });

  test('When the XML breaks off or is not XML at all, then the items before are kept and one error says where it broke', async () => {
    const broken = await readText('<rss xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:id>A</g:id><g:title>A</g:title></item>\n<item><g:id>B</g:id></chanel>', 'feed-xml');
    expect(broken.filter((r) => r.error === undefined).map((r) => r.value)).toEqual([expect.objectContaining({ id: 'A' })]);
    expect(broken.filter((r) => r.error !== undefined)).toEqual([{ line: 2, error: expect.stringMatching(/^not well-formed XML/) }]);
    expect((await readText('just some words', 'feed-xml')).map((r) => r.error?.slice(0, 22))).toEqual(['not well-formed XML: t']);
  });

  test('When the first bytes are looked at, then XML and tab-separated feeds are told from the rest', () => {
    expect(sniffFeed('\uFEFF<?xml version="1.0"?><rss>')).toBe('feed-xml');
    expect(sniffFeed('  <feed xmlns="http://www.w3.org/2005/Atom">')).toBe('feed-xml');
    expect(sniffFeed('id\ttitle\tprice\n1\ta\t1 USD')).toBe('feed-tsv');
    expect(sniffFeed('g:id\tg:title\n')).toBe('feed-tsv');
    expect(sniffFeed('id,title,price\n')).toBeUndefined();
    expect(sniffFeed('{"products":[]}')).toBeUndefined();
  });
});

describe('feedPrice', () => {
  test('When given any text, then it reads exactly "<amount> <CUR>" and "<CUR> <amount>" with a point, and refuses the rest saying why', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.tuple(fc.stringMatching(/^[0-9]{1,14}([.,][0-9]{0,5})?$/), fc.constantFrom('USD', 'eur', 'GBP', ''), fc.boolean()).map(([a, c, before]) => (before ? `${c} ${a}` : `${a} ${c}`))), (text) => {
        const parsed = feedPrice(text);
        const reference = /^\s*(?:([0-9]{1,12}(?:\.[0-9]{1,4})?) +([A-Z]{3})|([A-Z]{3}) +([0-9]{1,12}(?:\.[0-9]{1,4})?))\s*$/.exec(text);
        if (reference === null) expect('error' in parsed).toBe(true);
        else expect(parsed).toEqual({ amount: reference[1] ?? reference[4], currency: reference[2] ?? reference[3] });
      }),
    );
  });
});

describe('FeedGroups', () => {
  const variant = (group: string, price: string, inStock: boolean): FeedRecord => ({ productKey: group, inStock, record: { id: group, title: group, price, available: inStock } });

  test('When variants of products come in any order within the window, then each product is the same as merging all its variants at once', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.integer({ min: 1, max: 9 }), fc.boolean()), { maxLength: 40 }), (items) => {
        const groups = new FeedGroups(4);
        const out = [...items.flatMap(([g, p, s], i) => groups.add(variant(g, `${p}.00`, s), i + 1)), ...groups.end()];
        // Reference: every variant of a product at once; the cheapest in stock, else the cheapest.
        const expected = [...new Set(items.map(([g]) => g))].map((g) => {
          const mine = items.filter(([h]) => h === g);
          const pool = mine.some(([, , s]) => s) ? mine.filter(([, , s]) => s) : mine;
          const best = pool.reduce((a, b) => (b[1] < a[1] ? b : a));
          return { id: g, price: `${best[1]}.00`, available: mine.some(([, , s]) => s) };
        });
        const byId = (list: { id: string }[]) => [...list].sort((x, y) => x.id.localeCompare(y.id));
        expect(byId(out.map((o) => o.value as { id: string; price: string; available: boolean }).map(({ id, price, available }) => ({ id, price, available })))).toEqual(byId(expected));
      }),
    );
  });

  test('When more products are open than the window holds, then the least recently seen are finished first and memory stays bounded', () => {
    const groups = new FeedGroups(2);
    expect(groups.add(variant('a', '1.00', true), 1)).toEqual([]);
    expect(groups.add(variant('b', '1.00', true), 2)).toEqual([]);
    expect(groups.add(variant('a', '1.00', true), 3)).toEqual([]);
    expect(groups.add(variant('c', '1.00', true), 4).map((o) => (o.value as { id: string }).id)).toEqual(['b']);
  });
});

describe('feedRecord', () => {
  test('When an item names an unavailable state or an id the catalog cannot take, then it says why', () => {
    expect(feedRecord({ id: 'X', title: 'T', availability: 'maybe' })).toEqual({ error: 'item X: availability "maybe" is not in_stock, out_of_stock, preorder or backorder' });
    expect(feedRecord({ id: 'has space', title: 'T' })).toEqual({ error: "item has space: the id must be 1-64 letters, digits, '.', '_' or '-'" });
    expect(feedRecord({ id: 'X', title: ' ' })).toEqual({ error: 'item X: no title' });
  });
});
