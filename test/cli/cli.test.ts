import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { signingKey, verifyCustomerToken } from '../../src/api/customer-token.js';
import { loadConfig } from '../../src/config.js';
import { startService } from '../../src/service.js';
import { withDataDir } from '../../src/cli/open-data-dir.js';
import { cliSync, type CliResult } from '../support/cli.js';
import { postEvents, putProducts, startTestService, tempDataDir, wireProduct } from '../support/service.js';

const dataDir = tempDataDir();

function cli(...args: string[]): CliResult {
  return cliIn(dataDir, ...args);
}

function cliIn(dir: string, ...args: string[]): CliResult {
  return cliSync([...args, '--data-dir', dir]);
}

/** The shop's signing secrets as stored, newest first (what a server on the data dir accepts). */
function shopSigningSecrets(shopId: string): Promise<string[]> {
  return withDataDir(dataDir, async (_dbs, shops) => shops.getShop(shopId)?.signingSecrets ?? []);
}

describe('cli', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('When a signing secret is made and a token minted, then the token proves the customer with that secret, and fails past its lifetime or without a secret', () => {
    expect(cli('shop', 'create', 'tokens').status).toBe(0);
    expect(cli('token', 'mint', 'tokens', 'cust-1').status).toBe(1); // no secret yet
    const secret = cli('token', 'secret', 'tokens').stdout.trim();
    const minted = cli('token', 'mint', 'tokens', 'cust-1', '--ttl', '600');
    expect(minted.status).toBe(0);
    const nowS = Math.floor(Date.now() / 1000);
    expect(verifyCustomerToken(minted.stdout.trim(), 'tokens', [signingKey(secret)], nowS)).toBe('cust-1');
    expect(verifyCustomerToken(minted.stdout.trim(), 'tokens', [signingKey(secret)], nowS + 601)).toBeUndefined();
    const next = cli('token', 'rotate', 'tokens').stdout.trim();
    expect(next).not.toBe(secret);
    expect(verifyCustomerToken(cli('token', 'mint', 'tokens', 'cust-2').stdout.trim(), 'tokens', [signingKey(next)], nowS)).toBe('cust-2');
    expect(cli('token', 'mint', 'tokens', 'cust-2', '--ttl', String(40 * 86_400)).status).toBe(2);
  });

  test('When the signing secret is read again and again, then it stays the same and no token stops verifying; only token rotate makes a new one', async () => {
    expect(cli('shop', 'create', 'reads').status).toBe(0);
    const first = cli('token', 'secret', 'reads').stdout.trim();
    expect(first).toMatch(/^cts_/);
    const token = cli('token', 'mint', 'reads', 'cust-1').stdout.trim();
    for (let i = 0; i < 3; i++) expect(cli('token', 'secret', 'reads').stdout.trim()).toBe(first);

    const rotated = cli('token', 'rotate', 'reads').stdout.trim();
    expect(rotated).not.toBe(first);
    expect(cli('token', 'secret', 'reads').stdout.trim()).toBe(rotated);
    // A server on the data dir accepts tokens of the newest two: the one minted before still verifies.
    const secrets = await shopSigningSecrets('reads');
    expect(secrets).toEqual([rotated, first]);
    const nowS = Math.floor(Date.now() / 1000);
    expect(verifyCustomerToken(token, 'reads', secrets.map(signingKey), nowS)).toBe('cust-1');
  });

  test('When a shop is created and a catalog and events are imported, then a server on that data dir serves them', async () => {
    const created = cli('shop', 'create', 'acme');
    expect(created.status).toBe(0);
    const publicKey = /public key \(storefront\): (pk_\S+)/.exec(created.stdout)![1]!;

    const catalog = path.join(dataDir, 'catalog.csv');
    writeFileSync(catalog, 'id,title,price,collections,available\n1,Red Mug,9.50,10;11,true\n2,Blue Mug,not-a-price,10,\n3,Green Mug,7,11,true\n');
    const products = cli('import', 'catalog', 'acme', catalog);
    expect(products.stdout).toContain('3 records');
    expect(products.stdout).toContain('2 stored');
    expect(products.stderr).toContain(`${catalog}:3: /price must be a decimal amount`);
    expect(products.status).toBe(1);

    const events = path.join(dataDir, 'events.ndjson');
    writeFileSync(
      events,
      [
        { type: 'purchase', productId: '3', sessionId: 's1', messageId: 'm1' },
        { type: 'purchase', productId: '3', sessionId: 's1', messageId: 'm1' },
        { type: 'view', productId: 'gid://shopify/Product/1', sessionId: 's2' },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const imported = cli('import', 'events', 'acme', events);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('2 stored, 1 duplicates, 0 rejected');

    const service = await startService(loadConfig({ PAIRWISE_DATA_DIR: dataDir, PORT: '0', PAIRWISE_DEMO: '0' }), { log: () => {} });
    try {
      const res = await fetch(`http://127.0.0.1:${service.port}/api/recommendations?strategy=trending`, { headers: { authorization: `Bearer ${publicKey}` } });
      const body = (await res.json()) as { products: { id: string }[] };
      expect(body.products.map((p) => p.id)).toEqual(['gid://shopify/Product/3', 'gid://shopify/Product/1']);
    } finally {
      await service.stop();
    }
  });

  test('When events are imported into the data dir while the server runs and more are served after them, then a restart has every one of them in the models', async () => {
    // Real clocks on both sides (event ids carry their writer's time): served, then imported, then served again.
    const server = await startTestService();
    try {
      await putProducts(server, ['1', '2', '3'].map((id) => wireProduct(id)));
      await postEvents(server, [1, 2, 3].map((i) => ({ type: 'purchase', productId: '1', sessionId: `served-${i}` })));
      const file = path.join(server.dataDir, 'import.ndjson');
      writeFileSync(file, [1, 2, 3, 4, 5].map((i) => JSON.stringify({ type: 'purchase', productId: '2', sessionId: `imported-${i}` })).join('\n'));

      const imported = cliIn(server.dataDir, 'import', 'events', server.shop.shopId, file);
      // Served after the import, so their ids sort after the imported ones: the snapshot taken at
      // stop comes after every imported id too.
      await postEvents(server, [1, 2].map((i) => ({ type: 'purchase', productId: '3', sessionId: `later-${i}` })));
      await server.stop();
      const restarted = await startTestService({ dataDir: server.dataDir, shop: server.shop });
      await restarted.stop();

      expect(imported.status).toBe(0);
      expect(imported.stdout).toContain(`beside the server running on this data dir (pid ${process.pid}): its models get these events at its next start at the latest`);
      expect(restarted.service.replayed).toMatchObject({ snapshots: 1 });
      expect(restarted.service.engines.get(server.shop.shopId).eventCount).toBe(10);
    } finally {
      await server.cleanup();
    }
  });

  test('When a command is unknown, then it exits 2 with the usage', () => {
    const unknown = cli('frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('usage: npm run cli');
  });
});
