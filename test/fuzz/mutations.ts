// Mutations of valid JSON messages, shared by the HTTP and WebSocket fuzzers: a valid sample is
// changed at the value level (wrong types, huge numbers, deep nesting, long and odd strings, keys
// removed or added), then at the byte level (truncated, invalid UTF-8, stray bytes), so inputs stay
// close enough to valid to reach the code behind the parsers.
import fc from 'fast-check';

/** Raw JSON text spliced where JSON.stringify cannot go: non-finite numbers, 20k levels of nesting (its recursion would overflow), lone-surrogate escapes. */
const RAW_TOKENS: readonly string[] = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '1.00000000000000000000000000001',
  '-0',
  '0.1e-400',
  '9007199254740993',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u0000"',
  '"a\\u0000b"',
  '[' .repeat(9) + ']'.repeat(9),
  '['.repeat(2_000) + ']'.repeat(2_000),
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(9) + '1' + '}'.repeat(9),
  '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[' + Array.from({ length: 101 }, () => '{}').join(',') + ']',
];

/** Lengths around the caps of the API (ids 64/128/200, tokens 400, metadata 1 KiB, a frame 64 KiB). */
const LONG_LENGTHS = [63, 64, 65, 127, 128, 129, 200, 201, 400, 401, 512, 1_025, 4_097, 66_000];

const longString = fc.tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom('a', '9', 'é', '𝕏', '\u0000', '-')).map(([length, unit]) => unit.repeat(length).slice(0, length));

/** Strings that break assumptions about text. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1.5',
    'null',
    'true',
    'undefined',
    '__proto__',
    'constructor',
    'toString',
    '\u0000',
    '\ud800',
    'a\udfffb',
    '\ufeff',
    '\u202e',
    'e\u0301',
    '𝕏𝕏',
    '%',
    '%zz',
    '%E0%A4%A',
    '../../etc/passwd',
    'gid://shopify/Product/',
    'gid://x/Collection/1',
    'gid://shopify/Product/9/extra',
    '<script>alert(1)</script>',
    'a,b,,c',
    'sk_',
    'pk_',
    'ct1.x.1.y.z',
    '\r\nx-injected: 1',
  ),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  longString,
);

/** Values of every JSON type and then some: wrong types for any field. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 53) - 2, 1e308, -1e308, Number.MIN_VALUE, [], {}, [null], { '': null }),
  nastyString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Field names seen by the API, and others: what a mutation may add to an object. */
const FIELD_NAMES = [
  'type', 'productId', 'sessionId', 'customerId', 'widgetId', 'metadata', 'messageId', 'timestamp', 'customerToken',
  'events', 'products', 'id', 'title', 'price', 'available', 'op', 'ref', 'event', 'query', 'sub', 'limit', 'strategy',
  '__proto__', 'constructor', '', 'x'.repeat(300),
];

export type ValueMutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'raw'; at: number; token: number }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; at: number; name: string; value: unknown }
  | { kind: 'wrap'; at: number; inArray: boolean }
  | { kind: 'repeat'; at: number; times: number };

export const valueMutation: fc.Arbitrary<ValueMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: nastyValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('raw' as const), at: fc.nat(), token: fc.nat(RAW_TOKENS.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.nat(), name: fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })), value: nastyValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrap' as const), at: fc.nat(), inArray: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), times: fc.constantFrom(2, 101, 1_001) }) },
);

export type ByteMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'overwrite'; at: number; byte: number }
  | { kind: 'bom' };

/** Invalid UTF-8 (lone continuation, overlong, surrogate, past U+10FFFF, truncated), NUL, JSON punctuation. */
const BYTE_SNIPPETS: readonly number[][] = [
  [0xff],
  [0x80],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0x00],
  [0x22],
  [0x5c],
  [0x7d],
  [0x5d],
  [0x2c],
  [0x2f, 0x2a],
];

export const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.oneof(fc.constantFrom(...BYTE_SNIPPETS), fc.array(fc.nat(255), { minLength: 1, maxLength: 4 })) }),
  fc.record({ kind: fc.constant('overwrite' as const), at: fc.nat(), byte: fc.nat(255) }),
  fc.constant({ kind: 'bom' as const }),
);

type Container = Record<string, unknown> | unknown[];

/** Every node of a JSON value with where it hangs (the root has no parent). */
function nodes(root: unknown): { parent?: Container; key?: string | number; value: unknown }[] {
  const out: { parent?: Container; key?: string | number; value: unknown }[] = [{ value: root }];
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (out.length > 500) return;
    for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
      const child = (value as Record<string | number, unknown>)[key];
      out.push({ parent: value as Container, key, value: child });
      walk(child);
    }
  };
  walk(root);
  return out;
}

const RAW_MARK = '\u0000raw:';

/** A deep copy of a JSON-like sample (samples are plain data: no cycles, no class instances). */
function copy(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Applies value mutations to a copy of `sample` and serializes it, splicing raw tokens in. */
export function mutateValue(sample: unknown, mutations: readonly ValueMutation[]): string {
  let root = copy(sample);
  for (const mutation of mutations) {
    const all = nodes(root);
    const node = all[mutation.at % all.length]!;
    const set = (value: unknown): void => {
      if (node.parent === undefined) root = value;
      else (node.parent as Record<string | number, unknown>)[node.key!] = value;
    };
    switch (mutation.kind) {
      case 'replace':
        set(copy(mutation.value));
        break;
      case 'raw':
        set(RAW_MARK + mutation.token);
        break;
      case 'delete':
        if (node.parent === undefined) root = undefined;
        else if (Array.isArray(node.parent)) node.parent.splice(node.key as number, 1);
        else delete node.parent[node.key as string];
        break;
      case 'add':
        if (typeof node.value === 'object' && node.value !== null && !Array.isArray(node.value)) {
          // defineProperty: "__proto__" becomes an own key, as JSON.parse on the server makes it.
          Object.defineProperty(node.value, mutation.name, { value: copy(mutation.value), enumerable: true, writable: true, configurable: true });
        } else if (Array.isArray(node.value)) node.value.push(copy(mutation.value));
        break;
      case 'wrap':
        set(mutation.inArray ? [node.value] : { value: node.value });
        break;
      case 'repeat': {
        const items = Array.isArray(node.value) && node.value.length > 0 ? node.value : [node.value];
        // Many copies only of small things: bodies stay around the caps, not megabytes past them.
        const times = (JSON.stringify(items) ?? '').length <= 2_000 ? mutation.times : 2;
        set(Array.from({ length: times }, (_, i) => copy(items[i % items.length])));
        break;
      }
    }
  }
  if (root === undefined) return '';
  return JSON.stringify(root).replace(/"\\u0000raw:(\d+)"/g, (_, i: string) => RAW_TOKENS[Number(i)]!);
}

export function mutateBytes(bytes: Buffer, mutations: readonly ByteMutation[]): Buffer {
  let out = bytes;
  for (const mutation of mutations) {
    const at = out.length === 0 ? 0 : 'at' in mutation ? mutation.at % (out.length + 1) : 0;
    switch (mutation.kind) {
      case 'truncate':
        out = out.subarray(0, at);
        break;
      case 'insert':
        out = Buffer.concat([out.subarray(0, at), Buffer.from(mutation.bytes), out.subarray(at)]);
        break;
      case 'overwrite':
        if (out.length > 0) {
          out = Buffer.from(out);
          out[Math.min(at, out.length - 1)] = mutation.byte;
        }
        break;
      case 'bom':
        out = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), out]);
        break;
    }
  }
  return out;
}

/**
 * Bodies around a valid sample: mostly the sample itself or a value-level mutation of it (so much
 * of it gets past the JSON parser), sometimes broken bytes, random bytes or nothing.
 */
export function jsonBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((sample) => Buffer.from(JSON.stringify(sample))) },
    { weight: 5, arbitrary: fc.tuple(valid, fc.array(valueMutation, { minLength: 1, maxLength: 3 })).map(([sample, m]) => Buffer.from(mutateValue(sample, m))) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.array(valueMutation, { maxLength: 2 }), fc.array(byteMutation, { minLength: 1, maxLength: 3 }))
        .map(([sample, m, b]) => mutateBytes(Buffer.from(mutateValue(sample, m)), b)),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{}', '"x"', '0', '{"', 'true').map((text) => Buffer.from(text)) },
  );
}

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as a browser would send them). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
