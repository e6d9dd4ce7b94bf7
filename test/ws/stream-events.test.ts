// Events over the stream: the same pipeline as the REST paths; acks only after the durable commit.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ids, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient } from './stream-client.js';
import { storedEvents } from '../support/stored-events.js';

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('stream events', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, Array.from({ length: 5 }, (_, i) => wireProduct(String(i + 1))));
  });
  afterAll(async () => {
    await t.cleanup();
  });

  for (const binary of [false, true]) {
    const encoding = binary ? 'msgpack (binary frames)' : 'JSON (text frames)';

    test(`When an event comes in ${encoding}, then the ack comes in the same encoding, after the event is stored and applied`, async () => {
      const client = await StreamClient.open(t.url, t.shop.publicKey, { binary });
      const session = `s-${binary}`;

      const ack = await client.request({ op: 'event', ref: `e-${binary}`, event: { type: 'view', productId: '3', sessionId: session } });

      expect(ack).toMatchObject({ op: 'ack', ref: `e-${binary}`, __binary: binary });
      expect(ack.eventId).toMatch(EVENT_ID);
      expect(ack.duplicate).toBeUndefined();
      expect(storedEvents(t.service.dbs, t.shop.shopId).find(({ eventId }) => eventId === ack.eventId)?.event).toMatchObject({ type: 'view', productId: '3', sessionId: session });
      expect(ids(await recommendations(t, `strategy=recently-viewed&sessionId=${session}&limit=1`))).toEqual(['3']);
      client.close();
    });
  }

  test('When a messageId is sent twice, then the second ack is the first eventId with duplicate:true', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey, { binary: true });
    const event = { type: 'click', productId: '2', sessionId: 'dup', messageId: 'm-1' };

    const first = await client.request({ op: 'event', ref: 1, event });
    const second = await client.request({ op: 'event', ref: 2, event });

    expect(second).toMatchObject({ op: 'ack', ref: 2, eventId: first.eventId, duplicate: true });
    client.close();
  });

  test('When an events op mixes valid and invalid events, then acks reports each by index like the batch REST response', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    const events = [
      { type: 'purchase', productId: '1', sessionId: 'b1' },
      { type: 'bogus', productId: '1', sessionId: 'b1' },
      { type: 'view', productId: '2' },
    ];
    const rest = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events }) }).then((r) => r.json());

    const acks = await client.request({ op: 'events', ref: 'batch', events });

    expect(acks).toMatchObject({ op: 'acks', ref: 'batch', success: false, accepted: 1, duplicates: 0, rejected: 2 });
    expect(acks.results[0]).toMatchObject({ index: 0, success: true });
    expect(acks.results.slice(1)).toEqual(rest.results.slice(1));
    expect(acks.results[1]).toMatchObject({ index: 1, success: false, error: { code: 'invalid_event', pointer: '/events/1/type' } });
    client.close();
  });

  test('When a single event is invalid, then an error with invalid_event and its field errors comes back and nothing is stored', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    const before = t.service.engines.get(t.shop.shopId).eventCount;

    const reply = await client.request({ op: 'event', ref: 7, event: { type: 'view', productId: '1' } });

    expect(reply).toMatchObject({ op: 'error', ref: 7, error: { code: 'invalid_event', errors: [{ pointer: '/sessionId' }] } });
    expect(t.service.engines.get(t.shop.shopId).eventCount).toBe(before);
    client.close();
  });

  test('When an events op holds 101 events or is not an array, then batch_too_large / invalid_batch and nothing is stored', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    const event = { type: 'view', productId: '1', sessionId: 'big' };

    const tooLarge = await client.request({ op: 'events', ref: 1, events: Array.from({ length: 101 }, () => event) });
    const notArray = await client.request({ op: 'events', ref: 2, events: { event } });

    expect(tooLarge).toMatchObject({ op: 'error', ref: 1, error: { code: 'batch_too_large' } });
    expect(notArray).toMatchObject({ op: 'error', ref: 2, error: { code: 'invalid_batch' } });
    client.close();
  });

  test('When a frame is not JSON or not msgpack, then an invalid_json error comes back and the socket stays open', async () => {
    const text = await StreamClient.open(t.url, t.shop.publicKey);
    const binary = await StreamClient.open(t.url, t.shop.publicKey, { binary: true });

    text.sendRaw('{"op":"ping"');
    binary.sendRaw(Buffer.from([0x82, 0xa2, 0x6f])); // a map of 2 cut inside its first key
    const textError = await text.next((m) => m.op === 'error');
    const binaryError = await binary.next((m) => m.op === 'error');

    expect(textError).toMatchObject({ error: { code: 'invalid_json' }, __binary: false });
    expect(binaryError).toMatchObject({ error: { code: 'invalid_json' }, __binary: true });
    expect(await text.request({ op: 'ping', ref: 'still' })).toMatchObject({ op: 'pong' });
    expect(await binary.request({ op: 'ping', ref: 'still' })).toMatchObject({ op: 'pong' });
    text.close();
    binary.close();
  });

  test('When the op is unknown or a field has the wrong type, then invalid_message with the ref', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);

    const unknown = await client.request({ op: 'publish', ref: 'u' });
    const wrongType = await client.request({ op: 'unsubscribe', ref: 'w', sub: 42 });

    expect(unknown).toMatchObject({ op: 'error', ref: 'u', error: { code: 'invalid_message' } });
    expect(wrongType).toMatchObject({ op: 'error', ref: 'w', error: { code: 'invalid_message', errors: [{ pointer: '/sub' }] } });
    client.close();
  });
});
