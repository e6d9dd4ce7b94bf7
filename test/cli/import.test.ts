// The CLI's imports into a data dir, run as a child process against real LMDB temp dirs.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliSync, refusals, stored } from '../support/cli.js';
import { tempDataDir } from '../support/service.js';

const dataDir = tempDataDir();
let shopCount = 0;

/** A new shop in the data dir (each test imports into its own). */
function newShop(): string {
  const shopId = `shop-${++shopCount}`;
  expect(cliSync(['shop', 'create', shopId, '--data-dir', dataDir]).status).toBe(0);
  return shopId;
}

function write(name: string, text: string, gzip = false): string {
  const file = path.join(dataDir, gzip ? `${name}.gz` : name);
  writeFileSync(file, gzip ? gzipSync(text) : text);
  return file;
}

function importFile(kind: 'catalog' | 'events', shopId: string, file: string) {
  return cliSync(['import', kind, shopId, file, '--data-dir', dataDir]);
}

const view = (productId: string, sessionId = 's1') => ({ type: 'view', productId, sessionId });

describe('cli import into a data dir', () => {
  beforeAll(() => {
    newShop(); // the data dir exists before the first test runs in parallel with nothing
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test.each([false, true])('When an NDJSON events file (gzip: %s) mixes good lines, lines that do not parse, invalid events and blank lines, then the good ones are stored and each bad line is reported with file, line and reason', async (gzip) => {
    const shopId = newShop();
    const file = write(
      `mixed-${shopId}.ndjson`,
      [JSON.stringify(view('1')), '{"type":"view",', '', JSON.stringify({ type: 'bogus', productId: '2', sessionId: 's' }), JSON.stringify(view('3')), 'not json', JSON.stringify(view('4'))].join('\n') + '\n',
      gzip,
    );

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`${file}: 6 records in`);
    expect(result.stdout).toContain('3 stored, 0 duplicates, 3 rejected');
    expect(refusals(result.stderr, file)).toEqual([
      [2, expect.stringMatching(/^not valid JSON \(/)],
      [4, expect.stringMatching(/^\/type must be one of impression, click/)],
      [6, expect.stringMatching(/^not valid JSON \(/)],
    ]);
    expect((await stored(dataDir, shopId)).events.map((e) => e.productId)).toEqual(['1', '3', '4']);
  });

  test.each([false, true])('When an events CSV (gzip: %s) has a row with too few cells, a quoted cell across lines, an invalid event and CRLF line ends, then the row is refused alone at its own line', async (gzip) => {
    const shopId = newShop();
    const rows = ['type,productId,sessionId,orderId', 'purchase,1,s1,"order\r\n42"', 'view,2', '', 'view,3,s2,', 'bogus,4,s3,', 'click,5,s4,o-1'];
    const file = write(`mixed-${shopId}.csv`, rows.join('\r\n') + '\r\n', gzip);

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(1);
    expect(result.stdout).toContain('3 stored, 0 duplicates, 2 rejected');
    expect(refusals(result.stderr, file)).toEqual([
      [4, '2 cells, but the header has 4 columns'],
      [7, expect.stringMatching(/^\/type must be one of/)],
    ]);
    const events = (await stored(dataDir, shopId)).events;
    expect(events.map((e) => e.productId)).toEqual(['1', '3', '5']);
    expect(events[0]!.metadata).toEqual({ orderId: 'order\r\n42' });
  });

  test.each([false, true])('When a JSON array of events (gzip: %s) holds an element that does not parse and an invalid one, then each is judged alone and the others are stored', async (gzip) => {
    const shopId = newShop();
    const text = `{
  "exportedBy": "legacy [system]",
  "events": [
    ${JSON.stringify(view('1'))},
    {"type": "view", "productId": },
    {
      "type": "click",
      "productId": "2",
      "sessionId": "s1"
    },
    {"type": "view", "productId": "3"},
    ${JSON.stringify(view('4'))}
  ]
}
`;
    const file = write(`mixed-${shopId}.json`, text, gzip);

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(1);
    expect(result.stdout).toContain('5 records in');
    expect(result.stdout).toContain('3 stored, 0 duplicates, 2 rejected');
    expect(refusals(result.stderr, file)).toEqual([
      [5, expect.stringMatching(/^not valid JSON \(/)],
      [11, '/sessionId is required'],
    ]);
    expect((await stored(dataDir, shopId)).events.map((e) => e.productId)).toEqual(['1', '2', '4']);
  });

  test('When a JSON file does not parse at all, then it is one refusal with the reason, nothing is stored and the exit status is 1', async () => {
    const shopId = newShop();
    const file = write(`broken-${shopId}.json`, 'type,productId,sessionId\nview,1,s1\n');

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(1);
    expect(refusals(result.stderr, file)).toEqual([[1, 'not a JSON array or an object holding "events": [...]']]);
    expect(result.stdout).toContain('0 stored');
    expect((await stored(dataDir, shopId)).events).toEqual([]);
  });

  test("When an events CSV has the catalog's header, then the header is refused naming the events columns and nothing is stored", async () => {
    const shopId = newShop();
    const file = write(`catalog-header-${shopId}.csv`, 'id,title,price\n1,Mug,9\n2,Cup,4\n');

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(1);
    expect(refusals(result.stderr, file)).toEqual([
      [1, 'the header lacks type, productId, sessionId: the events columns are type,productId,sessionId,customerId,widgetId,messageId,timestamp,orderId (type, productId, sessionId required); this header is a catalog header'],
    ]);
    expect((await stored(dataDir, shopId)).events).toEqual([]);
  });

  test('When a CSV header names a column the import does not know, then it warns naming it and imports the rest', async () => {
    const shopId = newShop();
    const file = write(`unknown-column-${shopId}.csv`, 'type,productId,sessionId,customerID\nview,1,s1,c1\n');

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`${file}:1: warning: ignoring the column customerID (the events columns are type,productId,sessionId,customerId,`);
    expect((await stored(dataDir, shopId)).events).toMatchObject([{ productId: '1', sessionId: 's1' }]);
  });

  test.each(['csv', 'ndjson', 'json'] as const)('When a catalog in %s (gzip too) has a bad record among good ones, then the good products are stored and the bad one is reported at its line', async (format) => {
    for (const gzip of [false, true]) {
      const shopId = newShop();
      const products = [
        { id: '1', title: 'Red Mug', price: '9.50' },
        { id: '2', title: 'Blue Mug', price: 'not-a-price' },
        { id: '3', title: 'Green Mug', price: '7' },
      ];
      const text =
        format === 'csv'
          ? 'id,title,price\n' + products.map((p) => `${p.id},${p.title},${p.price}`).join('\n') + '\n'
          : format === 'ndjson'
            ? products.map((p) => JSON.stringify(p)).join('\n') + '\n'
            : '[\n' + products.map((p) => JSON.stringify(p)).join(',\n') + '\n]\n';
      const file = write(`catalog-${shopId}.${format}`, text, gzip);

      const result = importFile('catalog', shopId, file);

      expect(result.status).toBe(1);
      expect(result.stdout).toContain('3 records in');
      expect(result.stdout).toContain('2 stored, 0 duplicates, 1 rejected');
      expect(refusals(result.stderr, file)).toEqual([[format === 'ndjson' ? 2 : 3, '/price must be a decimal amount such as "19.99"']]);
      expect((await stored(dataDir, shopId)).products.map((p) => p.id).sort()).toEqual(['1', '3']);
    }
  });

  test('When every line is good, then the exit status is 0 and no refusal is printed', () => {
    const shopId = newShop();
    const file = write(`good-${shopId}.ndjson`, [view('1'), view('2')].map((e) => JSON.stringify(e)).join('\n'));

    const result = importFile('events', shopId, file);

    expect(result.status).toBe(0);
    expect(result.stdout).toContain('2 stored, 0 duplicates, 0 rejected');
    expect(refusals(result.stderr, file)).toEqual([]);
  });

  test('When the shop or the file does not exist, then the CLI says so without the usage and exits 1', () => {
    const file = write('nobody.ndjson', JSON.stringify(view('1')));
    const unknownShop = importFile('events', 'nobody', file);
    expect(unknownShop.status).toBe(1);
    expect(unknownShop.stderr).toContain(`error: unknown shop "nobody" in ${dataDir}`);
    expect(unknownShop.stderr).not.toContain('usage:');

    const missing = importFile('events', 'shop-1', path.join(dataDir, 'missing.ndjson'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read .*missing\.ndjson: ENOENT/);
    expect(missing.stderr).not.toContain('usage:');
  });
});

describe('cli usage', () => {
  const dir = tempDataDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('When the CLI gets no arguments, then it prints the usage on stderr and exits 2', () => {
    const result = cliSync([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: npm run cli');
    expect(result.stdout).toBe('');
  });

  test('When help is asked for, then the usage goes to stdout with exit status 0', () => {
    for (const args of [['help'], ['--help']]) {
      const result = cliSync(args);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('usage: npm run cli');
    }
  });

  test('When a command fails for a reason that is not its syntax, then only the error is printed, exit status 1', () => {
    expect(cliSync(['shop', 'create', 'twice', '--data-dir', dir]).status).toBe(0);
    const again = cliSync(['shop', 'create', 'twice', '--data-dir', dir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe('error: shop "twice" already exists\n');
  });

  test.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['shop', 'create', 'x', '--colour', 'red'], "Unknown option '--colour'"],
    [['import', 'events', 'x'], 'import events needs a shop id and a file'],
    [['import', 'events', 'x', 'f.ndjson', '--url', 'ftp://host'], '--url must be an http:// or https:// address'],
    [['import', 'events', 'f.ndjson', '--url', 'http://127.0.0.1:1'], "--url needs --key with the shop's secret key"],
    [['key', 'create', 'x', '--kind', 'other'], 'key create needs --kind public or --kind secret'],
  ])('When the command line is wrong (%j), then the error comes with the usage and exit status 2', (args, message) => {
    const result = cliSync([...args, '--data-dir', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: npm run cli');
  });
});
