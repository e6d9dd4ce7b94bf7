// npm run cli -- compact: LMDB frees the pages an erasure rewrote without overwriting them, so an
// erased event's bytes stay in data.mdb; the compacted file holds only the pages in use. The data
// dir still serves everything else after it, and the command refuses a data dir a server holds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cliSync } from '../support/cli.js';
import { postEvents, startTestService, type TestService } from '../support/service.js';

describe('cli compact', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(dataDir?: string, shop = started[0]?.shop): Promise<TestService> {
    const t = await startTestService({ ...(dataDir ? { dataDir } : {}), ...(shop ? { shop } : {}) });
    started.push(t);
    return t;
  }

  const dataFile = (t: TestService) => path.join(t.dataDir, 'db', 'data.mdb');
  const fileSpells = (file: string, text: string) => readFileSync(file).includes(Buffer.from(text));

  test('When a customer was erased, then their event is still in the file’s free pages until compact rewrites it, and the data dir serves the rest after', async () => {
    const t = await start();
    const marker = `erased-marker-${Date.now().toString(36)}`;
    // A batch of the customer's events large enough for its own (overflow) pages, as a shopper's busy day would be.
    const gone = Array.from({ length: 60 }, (_, i) => ({ type: 'view', productId: String(i), sessionId: 'gone-s', customerId: 'gone-cust', metadata: { note: `${marker} ${'x'.repeat(800)}` } }));
    await postEvents(t, gone, t.shop.secretKey);
    await postEvents(t, [{ type: 'view', productId: '2', sessionId: 'kept-s', customerId: 'kept-cust', metadata: { note: 'kept-note' } }], t.shop.secretKey);
    expect((await t.fetch('/api/customers/gone-cust', { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
    await t.service.pruneLog(); // the erasure no longer names them in the log either
    await t.stop();
    expect(fileSpells(dataFile(t), marker)).toBe(true); // freed, not overwritten

    const result = cliSync(['compact', '--data-dir', t.dataDir]);

    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^compacted .*data\.mdb: \d+\.\d MB → \d+\.\d MB\n$/);
    expect(fileSpells(dataFile(t), marker)).toBe(false);
    expect(fileSpells(dataFile(t), 'kept-note')).toBe(true);
    const again = await start(t.dataDir, t.shop);
    const kept = (await (await again.fetch('/api/customers/kept-cust', { key: t.shop.secretKey })).json()) as { events: { metadata: unknown }[] };
    expect(kept.events.map((e) => e.metadata)).toEqual([{ note: 'kept-note' }]);
    expect((await again.fetch('/api/customers/gone-cust', { key: t.shop.secretKey }).then((r) => r.json())) as { events: unknown[] }).toMatchObject({ events: [] });
  });

  test('When a server holds the data dir, then compact refuses it and changes nothing', async () => {
    const t = await start();
    const result = cliSync(['compact', '--data-dir', t.dataDir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/in use by another Pairwise server \(pid \d+/);
    expect((await t.fetch('/api/shop', { key: t.shop.secretKey })).status).toBe(200);
  });
});
