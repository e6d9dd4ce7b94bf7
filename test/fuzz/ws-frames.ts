// Random and mutated frames for GET /api/stream: protocol messages (event, events, subscribe,
// unsubscribe, ping) mutated like the HTTP bodies, as JSON text or msgpack binary frames; random
// text and bytes; msgpack values of every type and hand-made msgpack headers; frames around the
// payload cap. A frame is a spec, made into bytes when sent (its ref is then made unique).
import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import { Packr } from 'msgpackr';
import { eventSample, fill, recommendationParams, type Placeholders } from './http-requests.js';
import { byteMutation, mutateBytes, mutateValue, nastyString, valueMutation, type ByteMutation, type ValueMutation } from './mutations.js';

/** The server's cap (PAIRWISE_WS_MAX_PAYLOAD_BYTES default) and uWS's, 4× it (docs/api.md, stream-server.ts). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
export const UWS_PAYLOAD_BYTES = 4 * MAX_PAYLOAD_BYTES;

export type FrameSpec =
  | { kind: 'message'; binary: boolean; sample: Record<string, unknown>; values: readonly ValueMutation[]; bytes: readonly ByteMutation[] }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; binary: boolean; bytes: number[] }
  | { kind: 'msgpack value'; value: unknown }
  | { kind: 'msgpack header'; index: number }
  | { kind: 'big'; binary: boolean; size: number };

export interface Frame {
  binary: boolean;
  payload: Buffer;
}

const packr = new Packr({ useRecords: false });

/** msgpack that is short on purpose: lengths that promise more than follows, unused and extension type bytes, deep nesting. */
const MSGPACK_HEADERS: readonly Buffer[] = [
  Buffer.from([0xc1]),
  Buffer.from([0xdd, 0xff, 0xff, 0xff, 0xff]),
  Buffer.from([0xdf, 0xff, 0xff, 0xff, 0xff]),
  Buffer.from([0xdb, 0xff, 0xff, 0xff, 0xff, 0x61]),
  Buffer.from([0xc6, 0xff, 0xff, 0xff, 0xff]),
  Buffer.from([0xd4, 0x7f, 0x00]),
  Buffer.from([0xd4, 0xff, 0x00]),
  Buffer.from([0xd6, 0xff, 0x00, 0x00, 0x00, 0x01]),
  Buffer.from([0xc7, 0x05, 0x72, 0x01, 0x02]),
  Buffer.from([0xd4, 0x72, 0x00]),
  Buffer.from([0xd5, 0x73, 0x00, 0x01]),
  Buffer.from([0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
  Buffer.from([0x81, 0xa2, 0x6f, 0x70, 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
  Buffer.concat([Buffer.alloc(60_000, 0x91), Buffer.from([0xc0])]),
  Buffer.concat([Buffer.alloc(30_000, 0x81).map((b, i) => (i % 2 === 0 ? 0x81 : 0xa0)), Buffer.from([0xc0])]),
];

const ref = fc.constant('{{ref}}');

const queryValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 3 }), nastyString) },
);

/** A subscribe query: the GET parameters as an object, each value valid or of another type. */
const subscriptionQuery: fc.Arbitrary<Record<string, unknown>> = fc
  .record(Object.fromEntries(Object.entries(recommendationParams).map(([name, valid]) => [name, fc.tuple(valid, queryValue)])), { requiredKeys: [] })
  .map((query) => Object.fromEntries(Object.entries(query as Record<string, [string, unknown]>).map(([name, [valid, other]]) => [name, other === 'valid' ? valid : other])));

export const messageSample: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ op: fc.constant('event'), ref, event: eventSample }),
  fc.record({ op: fc.constant('events'), ref, events: fc.array(eventSample, { minLength: 1, maxLength: 4 }) }),
  fc.record({ op: fc.constant('subscribe'), ref, query: subscriptionQuery }),
  fc.record({ op: fc.constant('unsubscribe'), ref, sub: fc.oneof(fc.constantFrom('s1', 's2', 's3', 'sa'), fc.string({ maxLength: 4 })) }),
  fc.record({ op: fc.constant('ping'), ref }),
);

export const frameSpec: fc.Arbitrary<FrameSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('message' as const), binary: fc.boolean(), sample: messageSample, values: fc.constant([]), bytes: fc.constant([]) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('message' as const), binary: fc.boolean(), sample: messageSample, values: fc.array(valueMutation, { minLength: 1, maxLength: 3 }), bytes: fc.constant([]) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('message' as const), binary: fc.boolean(), sample: messageSample, values: fc.array(valueMutation, { maxLength: 2 }), bytes: fc.array(byteMutation, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', 'null', '[]', '{}', '"ping"', '{"op":"ping"', '{"op":null}', '{"op":"PING"}', '{"op":"ping","ref":{}}', '{"op":"ping","ref":1e400}')) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), binary: fc.boolean(), bytes: fc.array(fc.nat(255), { maxLength: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('msgpack value' as const), value: fc.anything({ maxDepth: 3, withMap: true, withSet: true, withDate: true, withTypedArray: true, withBigInt: true, withNullPrototype: true, withBoxedValues: true }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('msgpack header' as const), index: fc.nat(MSGPACK_HEADERS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('big' as const), binary: fc.boolean(), size: fc.constantFrom(MAX_PAYLOAD_BYTES - 1, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES + 1, 100_000, UWS_PAYLOAD_BYTES, UWS_PAYLOAD_BYTES + 1) }) },
);

function pack(value: unknown): Buffer | undefined {
  try {
    return packr.pack(value);
  } catch {
    return undefined; // a value msgpackr cannot write (a BigInt past 64 bits, 20k levels of nesting)
  }
}

/** The frame's bytes, its sample's ref set to `ref` (before mutations, which may change or drop it). */
export function frameOf(spec: FrameSpec, refValue: string, placeholders: Placeholders): Frame {
  switch (spec.kind) {
    case 'message': {
      const text = fill(mutateValue({ ...spec.sample, ref: refValue }, spec.values), placeholders);
      let payload = Buffer.from(text);
      if (spec.binary) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        payload = (value === undefined ? undefined : pack(value)) ?? payload;
      }
      return { binary: spec.binary, payload: mutateBytes(payload, spec.bytes) };
    }
    case 'text':
      return { binary: false, payload: Buffer.from(spec.text) };
    case 'bytes':
      return { binary: spec.binary, payload: Buffer.from(spec.bytes) };
    case 'msgpack value':
      return { binary: true, payload: pack(spec.value) ?? Buffer.from([0xc1]) };
    case 'msgpack header':
      return { binary: true, payload: MSGPACK_HEADERS[spec.index]! };
    case 'big': {
      // A ping whose ref fills the frame up to `size` bytes.
      const shell = { op: 'ping', ref: '' };
      const room = spec.size - (spec.binary ? packr.pack(shell).length + 4 : JSON.stringify(shell).length);
      const message = { op: 'ping', ref: 'r'.repeat(Math.max(0, room)) };
      const payload = spec.binary ? packr.pack(message) : Buffer.from(JSON.stringify(message));
      return { binary: spec.binary, payload: payload.length > spec.size ? payload.subarray(0, spec.size) : Buffer.concat([payload, Buffer.alloc(spec.size - payload.length, 0x20)]) };
    }
  }
}

/** How the server must close on this frame (docs/api.md "Close codes"), or undefined when it must stay open. */
export function expectedClose(frame: Frame): { code: number; why: string } | undefined {
  if (frame.payload.length > UWS_PAYLOAD_BYTES) return { code: 1006, why: `past uWS's maxPayloadLength (${UWS_PAYLOAD_BYTES}): cut from its header` };
  // uWS checks UTF-8 before our code sees the frame (RFC 6455 would say 1007): the documented limitation.
  if (!frame.binary && !isUtf8(frame.payload)) return { code: 1006, why: 'a text frame that is not UTF-8 (uWS cuts it)' };
  if (frame.payload.length > MAX_PAYLOAD_BYTES) return { code: 1009, why: `over the ${MAX_PAYLOAD_BYTES}-byte cap` };
  return undefined;
}
