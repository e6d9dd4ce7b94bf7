// DELETE /api/shop against the real server and LMDB: refused without the confirmation; with it,
// every row of the shop goes from every database, its keys are refused at once, another shop is
// untouched, and a restart does not bring it back.
import { afterEach, describe, expect, test } from 'vitest';
import type { Databases } from '../../src/store/database.js';
import { generateKey } from '../../src/store/shop-store.js';
import { StreamClient } from '../ws/stream-client.js';
import { newShop, postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

/** Every row of any database that belongs to `shopId`: keyed by it, or (keys, dashboard sessions) naming it. */
function rowsOf(dbs: Databases, shopId: string): string[] {
  const found: string[] = [];
  const named = (key: unknown) => (Array.isArray(key) ? key[0] === shopId : key === shopId);
  for (const name of ['log', 'logHeads', 'logStarts', 'snapshotPositions', 'dedup', 'customerEvents', 'products', 'shops', 'snapshots', 'snapshotParts', 'experiments', 'artifacts'] as const) {
    for (const key of (dbs[name] as Databases['log']).getKeys()) if (named(key)) found.push(`${name} ${JSON.stringify(key)}`);
  }
  const hashes = new Set<string>();
  for (const { key, value } of dbs.apiKeys.getRange()) if (value.shopId === shopId) hashes.add(key);
  for (const hash of hashes) found.push(`apiKeys ${hash}`);
  for (const { value } of dbs.dashboardSessions.getRange()) if (hashes.has(value.keyHash)) found.push('dashboardSessions');
  return found;
}

describe('DELETE /api/shop', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test('When the confirmation is missing or names another shop, or the key is public, then nothing is erased', async () => {
    const t = await startTestService({ clock: () => NOW });
    started.push(t);
    for (const query of ['', '?confirm=', '?confirm=other-shop']) {
      const res = await t.fetch(`/api/shop${query}`, { method: 'DELETE', key: t.shop.secretKey });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('confirmation_required');
    }
    expect((await t.fetch(`/api/shop?confirm=${t.shop.shopId}`, { method: 'DELETE' })).status).toBe(403);
    expect((await t.fetch('/api/shop', { key: t.shop.secretKey })).status).toBe(200);
  });

  test('When a shop is erased, then its keys are refused, none of its rows is left, another shop is untouched, and a restart does not bring it back', async () => {
    const other = newShop('shop-kept');
    const t = await startTestService({ clock: () => NOW });
    started.push(t);
    const { shopId } = t.shop;
    // A second shop in the same data dir, with keys made at run time.
    await t.service.shops.ensureShop(other.shopId);
    await t.service.shops.addKey(other.shopId, other.secretKey);
    await t.service.shops.addKey(other.shopId, other.publicKey);
    await putProducts(t, ['1', '2', '3'].map((id) => wireProduct(id)));
    await postEvents(t, [
      { type: 'purchase', productId: '1', sessionId: 's1', customerId: 'c1', messageId: 'm1' },
      { type: 'view', productId: '2', sessionId: 's1', customerId: 'c1' },
    ], t.shop.secretKey);
    const otherPut = await t.fetch('/api/products', { method: 'PUT', key: other.secretKey, body: JSON.stringify({ products: [wireProduct('9')] }) });
    expect(otherPut.status).toBe(200);
    const signIn = await fetch(`${t.url}/dashboard/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url }, body: new URLSearchParams({ key: t.shop.secretKey }).toString() });
    expect(signIn.status).toBe(303);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';', 1)[0]!;
    await t.service.snapshot();
    const extraKey = generateKey('public');
    await t.service.shops.addKey(shopId, extraKey);
    expect(rowsOf(t.service.dbs, shopId).length).toBeGreaterThan(5);
    const otherRows = rowsOf(t.service.dbs, other.shopId);

    const socket = await StreamClient.open(t.url, t.shop.publicKey);
    const dashboard = async () => (await fetch(`${t.url}/dashboard`, { headers: { cookie } })).text();
    expect(await dashboard()).not.toContain('action="/dashboard/sign-in"');

    const res = await t.fetch(`/api/shop?confirm=${shopId}`, { method: 'DELETE', key: t.shop.secretKey });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, erased: shopId });

    for (const key of [t.shop.secretKey, t.shop.publicKey, extraKey]) expect((await t.fetch('/api/recommendations?strategy=trending', { key })).status).toBe(401);
    // Its WebSocket connections end with it.
    expect(await Promise.race([socket.closed.then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 3_000, 'open'))])).toBe('closed');
    expect(rowsOf(t.service.dbs, shopId)).toEqual([]);
    expect(rowsOf(t.service.dbs, other.shopId)).toEqual(otherRows);
    // The dashboard session signed in with its key is gone: the page asks to sign in again.
    expect(await dashboard()).toContain('action="/dashboard/sign-in"');
    expect((await t.fetch('/api/products/9', { key: other.secretKey })).status).toBe(200);
    // The snapshot the housekeeper takes next does not write the erased shop back.
    await t.service.snapshot();
    expect(rowsOf(t.service.dbs, shopId)).toEqual([]);

    await t.stop();
    // Started again as the other shop's server: nothing re-creates the erased one.
    const again = await startTestService({ clock: () => NOW, dataDir: t.dataDir, shop: other });
    started.push(again);
    expect(again.service.replayed.shops).toBe(1);
    expect(rowsOf(again.service.dbs, shopId)).toEqual([]);
    expect((await again.fetch('/api/shop', { key: t.shop.secretKey })).status).toBe(401);
    expect((await again.fetch('/api/products/9', { key: other.secretKey })).status).toBe(200);
  });
});
