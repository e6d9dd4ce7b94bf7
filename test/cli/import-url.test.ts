// The CLI's imports through a running server's API (--url): a real server on port 0, the CLI as a
// child process started where no data dir holds the shop.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, refusals } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';

/** A port nothing listens on: bound, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('cli import --url', () => {
  let server: TestService;
  // The CLI runs here: no ./data, and PAIRWISE_DATA_DIR points at an empty dir.
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'pairwise-cli-'));
  const env = { PAIRWISE_DATA_DIR: path.join(elsewhere, 'data') };

  beforeAll(async () => {
    server = await startTestService();
  });
  afterAll(async () => {
    await server.cleanup();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  function write(name: string, text: string, gzip = false): string {
    const file = path.join(elsewhere, gzip ? `${name}.gz` : name);
    writeFileSync(file, gzip ? gzipSync(text) : text);
    return file;
  }

  test.each([false, true])('When events (gzip: %s) are imported into a server whose data dir is elsewhere, then the key names the shop, the good lines count at once and each bad one is reported at its line', async (gzip) => {
    const session = `url-${gzip}`;
    const file = write(
      `events-${gzip}.ndjson`,
      [
        JSON.stringify({ type: 'purchase', productId: '7', sessionId: session }),
        '{"type":"purchase"',
        JSON.stringify({ type: 'purchase', productId: '8' }),
        JSON.stringify({ type: 'purchase', productId: '9', sessionId: session }),
      ].join('\n'),
      gzip,
    );
    const before = server.service.engines.get(server.shop.shopId).eventCount;

    const result = await cli(['import', 'events', server.shop.shopId, file, '--url', server.url, '--key', server.shop.secretKey], { cwd: elsewhere, env });

    expect(result.status).toBe(1);
    expect(result.stdout).toContain('2 stored, 0 duplicates, 2 rejected');
    expect(result.stdout).not.toContain('stored in LMDB');
    expect(refusals(result.stderr, file)).toEqual([
      [2, expect.stringMatching(/^not valid JSON \(/)],
      [3, '/sessionId is required'],
    ]);
    expect(server.service.engines.get(server.shop.shopId).eventCount).toBe(before + 2);
    expect(existsSync(env.PAIRWISE_DATA_DIR)).toBe(false); // nothing local was opened
  });

  test('When a catalog CSV is imported through the API without a shop id, then the valid products are stored and the bad row is reported at its line', async () => {
    const file = write('catalog.csv', 'id,title,price\nu1,Red Mug,9.50\nu2,Blue Mug,cheap\nu3,Green Mug\nu4,Cup,3\n');

    const result = await cli(['import', 'catalog', file, '--url', server.url, '--key', server.shop.secretKey], { cwd: elsewhere, env });

    expect(result.status).toBe(1);
    expect(result.stdout).toContain('2 stored, 0 duplicates, 2 rejected');
    expect(refusals(result.stderr, file)).toEqual([
      [3, '/price must be a decimal amount such as "19.99"'],
      [4, '2 cells, but the header has 3 columns'],
    ]);
    const found = await Promise.all(['u1', 'u2', 'u4'].map(async (id) => (await server.fetch(`/api/products/${id}`, { key: server.shop.secretKey })).status));
    expect(found).toEqual([200, 404, 200]);
  });

  test("When --url is the server's API address ($API, ending in /api), then the import goes to the same routes", async () => {
    const file = write('catalog-api.csv', 'id,title,price\nv1,Teapot,20.00\n');

    const result = await cli(['import', 'catalog', file, '--url', `${server.url}/api/`, '--key', server.shop.secretKey], { cwd: elsewhere, env });

    expect(result.status).toBe(0);
    expect(result.stdout).toContain('1 stored, 0 duplicates, 0 rejected');
    expect((await server.fetch('/api/products/v1', { key: server.shop.secretKey })).status).toBe(200);
  });

  test('When --url names an address where nothing listens, then the error names the address and ECONNREFUSED, without the usage', async () => {
    const port = await closedPort();
    const file = write('dead.ndjson', JSON.stringify({ type: 'view', productId: '1', sessionId: 's' }));

    const result = await cli(['import', 'events', file, '--url', `http://127.0.0.1:${port}`, '--key', server.shop.secretKey], { cwd: elsewhere, env });

    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`error: POST http://127.0.0.1:${port}/api/events/batch failed: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(result.stderr).toContain(`records from ${file}:1 on were not imported`);
    expect(result.stderr).not.toContain('usage:');
  });

  test('When the key is not one the server knows, then the error says so and names the address', async () => {
    const file = write('wrong-key.ndjson', JSON.stringify({ type: 'view', productId: '1', sessionId: 's' }));

    const result = await cli(['import', 'events', file, '--url', server.url, '--key', 'sk_not_a_key_of_this_server'], { cwd: elsewhere, env });

    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`error: POST ${server.url}/api/events/batch answered 401: the server knows no such key`);
  });

  test('When a shop id is given that the key does not belong to, then nothing is imported and the error names both shops', async () => {
    const file = write('other-shop.ndjson', JSON.stringify({ type: 'view', productId: '1', sessionId: 'other-shop' }));
    const before = server.service.engines.get(server.shop.shopId).eventCount;

    const result = await cli(['import', 'events', 'another-shop', file, '--url', server.url, '--key', server.shop.secretKey], { cwd: elsewhere, env });

    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`error: --key belongs to shop "${server.shop.shopId}" on ${server.url}, not "another-shop": nothing was imported`);
    expect(server.service.engines.get(server.shop.shopId).eventCount).toBe(before);
  });
});
