import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EVENT_TYPES, MAX_BATCH_EVENTS, MAX_METADATA_BYTES, MAX_METADATA_DEPTH, parseBatchEnvelope, parseEvent, storedMetadataBytes } from '../../src/api/event.js';
import { msgpackSize } from '../reference/msgpack-size.js';

const NOW = Date.UTC(2024, 0, 1);
const BARE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Objects shaped like events, each field often valid, sometimes not. */
const eventLikeArb = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...EVENT_TYPES), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })),
    productId: fc.oneof(fc.constantFrom('123', 'gid://shopify/Product/123', 'gid://x/Collection/1', '', ' 1', 'a'.repeat(201)), fc.string({ maxLength: 20 }), fc.integer()),
    sessionId: fc.oneof(fc.constantFrom('s1', '', 'x'.repeat(129)), fc.string({ maxLength: 10 }), fc.constant(null)),
    customerId: fc.oneof(fc.constantFrom('c1', null, ''), fc.integer()),
    widgetId: fc.oneof(fc.constantFrom('w1', null), fc.boolean()),
    metadata: fc.oneof(fc.constant(null), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.array(fc.integer(), { maxLength: 2 }), fc.constant({ big: 'x'.repeat(MAX_METADATA_BYTES) }), fc.string({ maxLength: 4 })),
    messageId: fc.oneof(fc.constantFrom('m1', null, '', 'm'.repeat(65)), fc.integer()),
    timestamp: fc.oneof(
      fc.constantFrom(null, '2023-12-31T23:59:59Z', '2023-12-31T23:59:59.123+01:00', '2023-13-45T99:99Z', '2023-12-31', 'yesterday', '1999-12-31T23:59:59Z'),
      fc.integer({ min: NOW - 400 * 86_400_000, max: NOW + 3_600_000 }),
      fc.double(),
    ),
  },
  { requiredKeys: [] },
);

const anyInput = fc.oneof(fc.anything(), fc.jsonValue(), eventLikeArb, fc.array(eventLikeArb, { maxLength: 2 }));

describe('parseEvent', () => {
  test('When given any value, then it never throws, accepts only normalized events and points every error under the prefix', () => {
    fc.assert(
      fc.property(anyInput, fc.constantFrom('', '/events/3'), (input, prefix) => {
        const parsed = parseEvent(input, NOW, prefix);
        if (parsed.ok) {
          const { event } = parsed;
          expect(EVENT_TYPES).toContain(event.type);
          expect(event.productId).toMatch(BARE);
          expect(typeof event.sessionId).toBe('string');
          expect(event.sessionId.length).toBeGreaterThan(0);
          expect(Number.isInteger(event.timestamp)).toBe(true);
          expect(event.timestamp).toBeLessThanOrEqual(NOW + 10 * 60_000);
          for (const key of ['customerId', 'widgetId', 'messageId'] as const) {
            if (key in event) expect(typeof event[key] === 'string' && event[key] !== '').toBe(true);
          }
          if (event.metadata !== undefined) {
            expect(Array.isArray(event.metadata)).toBe(false);
            expect(Buffer.byteLength(JSON.stringify(event.metadata))).toBeLessThanOrEqual(MAX_METADATA_BYTES);
            expect(msgpackSize(event.metadata)).toBeLessThanOrEqual(MAX_METADATA_BYTES);
          }
        } else {
          expect(parsed.errors.length).toBeGreaterThan(0);
          for (const error of parsed.errors) {
            expect(error.code).toBe('invalid_event');
            expect(error.pointer.startsWith(prefix)).toBe(true);
            expect(error.pointer === prefix || error.pointer.startsWith(prefix + '/')).toBe(true);
            expect(error.detail).toBeTypeOf('string');
            expect(error.detail.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  test('When a gid names the product, then the accepted event has the bare id', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/), fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), (id, platform) => {
        const parsed = parseEvent({ type: 'view', productId: `gid://${platform}/Product/${id}`, sessionId: 's1' }, NOW);
        expect(parsed.ok && parsed.event.productId).toBe(id);
      }),
      { numRuns: 200 },
    );
  });

  test('When a minimal event is valid, then it is normalized with the server time and without nulls', () => {
    const parsed = parseEvent({ type: 'purchase', productId: '42', sessionId: 's1', customerId: null, metadata: null, timestamp: null }, NOW);
    expect(parsed).toEqual({ ok: true, event: { type: 'purchase', productId: '42', sessionId: 's1', timestamp: NOW } });
  });

  test('When the timestamp is ISO 8601 or epoch ms, then it becomes integer epoch ms', () => {
    const iso = parseEvent({ type: 'view', productId: '1', sessionId: 's', timestamp: '2023-12-31T23:00:00.5+01:00' }, NOW);
    expect(iso.ok && iso.event.timestamp).toBe(Date.UTC(2023, 11, 31, 22, 0, 0, 500));
    const ms = parseEvent({ type: 'view', productId: '1', sessionId: 's', timestamp: NOW - 1000.7 }, NOW);
    expect(ms.ok && ms.event.timestamp).toBe(NOW - 1001);
  });

  test.each([
    [{ type: 'like', productId: '1', sessionId: 's' }, '/type'],
    [{ productId: '1', sessionId: 's' }, '/type'],
    [{ type: 'view', productId: 'gid://shopify/Collection/1', sessionId: 's' }, '/productId'],
    [{ type: 'view', productId: '1', sessionId: '' }, '/sessionId'],
    [{ type: 'view', productId: '1', sessionId: 's', metadata: [1] }, '/metadata'],
    [{ type: 'view', productId: '1', sessionId: 's', metadata: { big: 'x'.repeat(MAX_METADATA_BYTES) } }, '/metadata'],
    [{ type: 'view', productId: '1', sessionId: 's', timestamp: '2023-12-31' }, '/timestamp'],
    [{ type: 'view', productId: '1', sessionId: 's', timestamp: '1999-12-31T00:00:00Z' }, '/timestamp'],
    [{ type: 'view', productId: '1', sessionId: 's', timestamp: NOW + 11 * 60_000 }, '/timestamp'],
    [{ type: 'view', productId: '1', sessionId: 's', messageId: 'm'.repeat(65) }, '/messageId'],
  ])('When the event is %j, then it is rejected at %s', (input, field) => {
    const parsed = parseEvent(input, NOW, '/events/0');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.pointer)).toContain(`/events/0${field}`);
  });

  test('When the input is not an object, then the error points at the prefix itself', () => {
    const parsed = parseEvent('view', NOW, '/events/7');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]!.pointer).toBe('/events/7');
  });
});

/** Levels of objects and arrays in a value, the value itself counting as one (reference: plain recursion). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return 1 + deepest;
}

/** `inner` wrapped in one object or array per step of `path`. */
function wrap(inner: unknown, path: readonly ('object' | 'array')[]): unknown {
  let value = inner;
  for (const step of path) value = step === 'object' ? { a: value } : [value];
  return value;
}

describe('metadata depth', () => {
  const nested = fc.record({
    path: fc.array(fc.constantFrom('object' as const, 'array' as const), { maxLength: 2 * MAX_METADATA_DEPTH }),
    inner: fc.jsonValue({ maxDepth: 3 }),
    siblings: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  });

  test('When metadata is nested to any depth, then it is accepted exactly when it has at most MAX_METADATA_DEPTH levels', () => {
    fc.assert(
      fc.property(nested, ({ path, inner, siblings }) => {
        const metadata = { ...siblings, deep: wrap(inner, path) };
        fc.pre(Buffer.byteLength(JSON.stringify(metadata)) <= MAX_METADATA_BYTES && msgpackSize(metadata) <= MAX_METADATA_BYTES);
        const parsed = parseEvent({ type: 'view', productId: '1', sessionId: 's', metadata }, NOW, '/events/2');
        if (depthOf(metadata) <= MAX_METADATA_DEPTH) {
          expect(parsed.ok).toBe(true);
        } else {
          expect(parsed).toEqual({ ok: false, errors: [{ code: 'invalid_event', pointer: '/events/2/metadata', detail: expect.stringContaining(`${MAX_METADATA_DEPTH} levels`) }] });
        }
      }),
      { numRuns: 500 },
    );
  });

  test('When metadata is nested far past what a recursive encoder survives, then it is rejected without throwing', () => {
    const metadata = { deep: wrap(1, Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? 'array' : 'object'))) };
    const parsed = parseEvent({ type: 'view', productId: '1', sessionId: 's', metadata }, NOW);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.map((e) => e.pointer)).toEqual(['/metadata']);
  });
});

describe('metadata size', () => {
  /** Metadata of every JSON kind, from a few bytes to past the bound either way: long strings (JSON ≈ stored) or many fractions (stored > JSON). */
  const metadataArb = fc.oneof(
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 12 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 400 }), { maxKeys: 6 }),
    fc.record({ prices: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 200 }) }),
    fc.record({ counts: fc.array(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), { maxLength: 300 }) }),
  ).map((metadata) => JSON.parse(JSON.stringify(metadata)) as Record<string, unknown>); // as a request body decodes: plain objects

  test('When metadata of any size is sent, then its stored size is what the format counts, and it is accepted exactly when both its JSON and its stored size are within MAX_METADATA_BYTES', () => {
    fc.assert(
      fc.property(metadataArb, (metadata) => {
        expect(storedMetadataBytes(metadata)).toBe(msgpackSize(metadata));
        const within = Buffer.byteLength(JSON.stringify(metadata)) <= MAX_METADATA_BYTES && msgpackSize(metadata) <= MAX_METADATA_BYTES;
        const parsed = parseEvent({ type: 'purchase', productId: '1', sessionId: 's', metadata }, NOW, '/events/4');
        if (within) expect(parsed).toMatchObject({ ok: true, event: { metadata } });
        else expect(parsed).toEqual({ ok: false, errors: [{ code: 'invalid_event', pointer: '/events/4/metadata', detail: expect.stringContaining(`${MAX_METADATA_BYTES} bytes`) }] });
      }),
      { numRuns: 600 },
    );
  });

  test('When metadata is 1 KiB of JSON but its fractions take 9 bytes each as stored, then it is refused for its stored size', () => {
    const metadata = { p: Array.from({ length: 250 }, () => 0.5) }; // 759 bytes of JSON, 2,257 stored
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBeLessThanOrEqual(MAX_METADATA_BYTES);
    const parsed = parseEvent({ type: 'view', productId: '1', sessionId: 's', metadata }, NOW);
    expect(parsed).toEqual({ ok: false, errors: [{ code: 'invalid_event', pointer: '/metadata', detail: expect.stringContaining('as stored') }] });
  });
});

describe('parseBatchEnvelope', () => {
  test('When given any value, then it never throws and accepts only an object holding 1-100 events', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ events: fc.oneof(fc.anything(), fc.array(fc.anything(), { maxLength: 120 })) })), (input) => {
        const parsed = parseBatchEnvelope(input);
        if (parsed.ok) {
          expect(typeof input === 'object' && input !== null && !Array.isArray(input)).toBe(true);
          expect(parsed.events).toBe((input as { events: unknown }).events);
          expect(parsed.events.length).toBeGreaterThanOrEqual(1);
          expect(parsed.events.length).toBeLessThanOrEqual(MAX_BATCH_EVENTS);
        } else {
          expect(['invalid_batch', 'batch_too_large']).toContain(parsed.code);
        }
      }),
      { numRuns: 300 },
    );
  });

  test.each([
    ['an array', [{ type: 'view' }], 'invalid_batch'],
    ['null', null, 'invalid_batch'],
    ['a string', '{"events":[]}', 'invalid_batch'],
    ['events not an array', { events: { 0: {} } }, 'invalid_batch'],
    ['no events', { events: [] }, 'invalid_batch'],
    ['101 events', { events: Array.from({ length: 101 }, () => ({})) }, 'batch_too_large'],
  ])('When the body is %s, then it is rejected with %s', (_, input, code) => {
    const parsed = parseBatchEnvelope(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.code).toBe(code);
  });

  test('When the body holds exactly 100 events, then the envelope is accepted, whatever the events are', () => {
    const parsed = parseBatchEnvelope({ events: Array.from({ length: 100 }, (_, i) => i) });
    expect(parsed.ok && parsed.events.length).toBe(100);
  });
});
