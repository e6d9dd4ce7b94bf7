// GET /api/stream: who may connect. The key comes as ?key=pk_… (browsers) or a Bearer header.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { StreamClient } from './stream-client.js';

describe('stream authentication', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  test('When the key is unknown, then the upgrade is refused with 401 unauthorized', async () => {
    const refused = await StreamClient.refusal(t.url, 'pk_unknownunknownunknownunknown');

    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(t.service.stream.stats().connections).toBe(0);
  });

  test('When no key is given, then the upgrade is refused with 401 unauthorized', async () => {
    const refused = await StreamClient.refusal(t.url, undefined);

    expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });

  test('When a secret key is put in the URL, then the upgrade is refused with 403 forbidden', async () => {
    const refused = await StreamClient.refusal(t.url, t.shop.secretKey);

    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });

  test('When a Bearer header comes with a secret key in the URL, then the upgrade is still refused with 403 forbidden', async () => {
    const refused = await StreamClient.refusal(t.url, t.shop.secretKey, { authorization: `Bearer ${t.shop.publicKey}` });

    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });

  test('When the public key is in ?key=, then the socket opens and answers', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);

    const pong = await client.request({ op: 'ping', ref: 'p1' });

    expect(pong).toMatchObject({ op: 'pong', ref: 'p1' });
    client.close();
  });

  test('When a server-side client sends the secret key as a Bearer header, then the socket opens', async () => {
    const client = await StreamClient.open(t.url, undefined, { headers: { authorization: `Bearer ${t.shop.secretKey}` } });

    const pong = await client.request({ op: 'ping', ref: 1 });

    expect(pong).toMatchObject({ op: 'pong', ref: 1 });
    client.close();
  });

  test('When a key is revoked, then its open sockets are closed with 1008 at once and sockets of other keys stay open', async () => {
    const extra = await t.service.shops.createKey(t.shop.shopId, 'public', 'to revoke');
    const doomed = await StreamClient.open(t.url, extra);
    const kept = await StreamClient.open(t.url, t.shop.publicKey);
    expect(await doomed.request({ op: 'ping', ref: 'before' })).toMatchObject({ op: 'pong' });

    const [record] = t.service.shops.listKeys(t.shop.shopId).filter((k) => k.label === 'to revoke');
    await t.service.shops.revokeKey(record!.hash);

    expect(await doomed.closed).toEqual({ code: 1008, reason: 'the API key was revoked' });
    expect(await kept.request({ op: 'ping', ref: 'after' })).toMatchObject({ op: 'pong', ref: 'after' });
    kept.close();
  });

  test('When GET /api/stream comes without a WebSocket upgrade, then 426 upgrade_required', async () => {
    const res = await t.fetch('/api/stream');

    expect(res.status).toBe(426);
    expect(await res.json()).toMatchObject({ code: 'upgrade_required' });
  });
});
