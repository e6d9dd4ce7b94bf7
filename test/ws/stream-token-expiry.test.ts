// A live list made as a customer proven by a token lasts as long as the token: when it expires, the
// subscription ends with an error frame naming it (the customer is no longer proven).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { customerToken, postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient, type Message } from './stream-client.js';

let t: TestService;
let now = Date.parse('2026-03-01T12:00:00Z');
const clients: StreamClient[] = [];

beforeAll(async () => {
  t = await startTestService({ clock: () => now });
  await putProducts(t, Array.from({ length: 6 }, (_, i) => wireProduct(String(i + 1))));
  await postEvents(t, [{ type: 'view', productId: '2', sessionId: 's-c', customerId: 'c-exp' }], t.shop.secretKey);
});
afterAll(async () => {
  for (const client of clients.splice(0)) client.close();
  await t.cleanup();
});

describe('subscriptions and customer tokens', () => {
  test('When the token of a customer subscription expires, then an error frame names the subscription and its pushes stop; a session subscription goes on', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    clients.push(client);
    const token = customerToken(t.shop, 'c-exp', now - 3_600_000 + 60_000); // an hour's token with a minute left
    const asCustomer = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'recently-viewed', customerToken: token, limit: 3 } });
    expect(asCustomer.products?.[0]).toMatchObject({ strategy: 'recently-viewed' });
    const asSession = await client.request({ op: 'subscribe', ref: 2, query: { strategy: 'trending', sessionId: 's-other', limit: 3 } });

    now += 61_000; // past the token's expiry
    const ended = await client.next((m: Message) => m.op === 'error' && m.sub === asCustomer.sub, 3_000);
    expect(ended.error).toMatchObject({ code: 'invalid_customer_token' });

    // The ended one is gone (its id is unknown now); the session's is still live.
    expect((await client.request({ op: 'unsubscribe', ref: 3, sub: asCustomer.sub }))).toMatchObject({ op: 'error', error: { code: 'not_found' } });
    client.send({ op: 'unsubscribe', ref: 4, sub: asSession.sub }); // answered only when it fails
    expect(await client.request({ op: 'ping', ref: 5 })).toMatchObject({ op: 'pong' });
    expect(client.all((m: Message) => m.ref === 4)).toEqual([]);
  });
});
