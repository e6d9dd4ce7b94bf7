// Requests whose HTTP/1.1 framing is broken: Content-Length wrong, repeated or unreadable, chunked
// bodies good and bad, bare CR/LF, folded and binary header lines, odd request lines, cut-off
// requests. Only raw bytes can say these; uWS refuses many before our code runs.
import fc from 'fast-check';
import { fill, type FuzzRequest, type Placeholders } from './http-requests.js';

export type FramingBreak =
  | { kind: 'content-length'; value: 'shorter' | 'longer' | 'zero' | 'letters' | 'negative' | 'plus' | 'spaces' | 'list' | 'huge' | 'hex' | 'empty' }
  | { kind: 'two content-lengths'; same: boolean }
  | { kind: 'chunked'; variant: 'valid' | 'bad size' | 'no terminator' | 'extension' | 'with content-length' | 'size too big' | 'trailer' }
  | { kind: 'transfer-encoding'; value: string }
  | { kind: 'line endings'; ending: '\n' | '\r' | '\n\r' }
  | { kind: 'header bytes'; bytes: number[]; inName: boolean }
  | { kind: 'obs-fold' }
  | { kind: 'host'; variant: 'none' | 'two' | 'empty' }
  | { kind: 'method'; value: string }
  | { kind: 'version'; value: string }
  | { kind: 'target'; value: string }
  | { kind: 'cut'; fraction: number }
  | { kind: 'expect 100-continue' }
  | { kind: 'many headers'; count: number }
  | { kind: 'long header'; size: number };

export const framingBreak: fc.Arbitrary<FramingBreak> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('content-length' as const), value: fc.constantFrom('shorter', 'longer', 'zero', 'letters', 'negative', 'plus', 'spaces', 'list', 'huge', 'hex', 'empty') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('two content-lengths' as const), same: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('chunked' as const), variant: fc.constantFrom('valid', 'bad size', 'no terminator', 'extension', 'with content-length', 'size too big', 'trailer') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('transfer-encoding' as const), value: fc.constantFrom('gzip', 'chunked, chunked', 'identity', 'CHUNKED', ' chunked', 'x') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('line endings' as const), ending: fc.constantFrom('\n' as const, '\r' as const, '\n\r' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('header bytes' as const), bytes: fc.array(fc.nat(255), { minLength: 1, maxLength: 3 }), inName: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'obs-fold' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('host' as const), variant: fc.constantFrom('none' as const, 'two' as const, 'empty' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('method' as const), value: fc.constantFrom('get', 'BREW', '', 'G ET', 'GET\t', 'CONNECT', 'TRACE', 'M-SEARCH') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('version' as const), value: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', '', 'http/1.1', 'HTTP/1.9', 'HTTP/0.9') }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('target' as const),
      value: fc.oneof(
        fc.constantFrom('*', 'http://fuzz.test/healthz', '/api/recommendations?q=a b', '/h\u00e9', '/\u0001', '', 'healthz', '/api/products/a\u0000b', '//', '/%', '/healthz#frag'),
        fc.constantFrom(2_000, 9_000, 70_000).map((n) => '/api/recommendations?sessionId=' + 'a'.repeat(n)),
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cut' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'expect 100-continue' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('many headers' as const), count: fc.constantFrom(60, 200, 2_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('long header' as const), size: fc.constantFrom(4_000, 16_000, 100_000) }) },
);

const CRLF = '\r\n';

/** The request's bytes with the break applied. */
export function brokenBytes(request: FuzzRequest, broken: FramingBreak, placeholders: Placeholders): Buffer {
  const body = Buffer.from(fill(request.body.toString('latin1'), placeholders), 'latin1');
  let method = request.method;
  let target = fill(request.target, placeholders);
  let version = 'HTTP/1.1';
  const headers: [string, string][] = [['Host', 'fuzz.test'], ...request.headers.map(([n, v]): [string, string] => [n, fill(v, placeholders)])];
  let bodyBytes = body;
  let lengthHeader: string | undefined = String(body.length);
  let ending = CRLF;
  let rawHeaderLine: Buffer | undefined;

  switch (broken.kind) {
    case 'content-length': {
      const n = body.length;
      lengthHeader = { shorter: String(Math.max(0, n - 3)), longer: String(n + 10), zero: '0', letters: 'abc', negative: '-1', plus: `+${n}`, spaces: ` ${n} `, list: `${n}, ${n}`, huge: '99999999999999999999999', hex: `0x${n.toString(16)}`, empty: '' }[broken.value];
      break;
    }
    case 'two content-lengths':
      headers.push(['Content-Length', broken.same ? String(body.length) : String(Math.max(0, body.length - 1))]);
      break;
    case 'chunked': {
      lengthHeader = broken.variant === 'with content-length' ? String(body.length) : undefined;
      headers.push(['Transfer-Encoding', 'chunked']);
      const size = body.length.toString(16);
      const chunk = (s: string): Buffer => Buffer.concat([Buffer.from(`${s}\r\n`), body, Buffer.from('\r\n')]);
      bodyBytes = {
        valid: Buffer.concat([chunk(size), Buffer.from('0\r\n\r\n')]),
        'bad size': Buffer.concat([chunk('zz'), Buffer.from('0\r\n\r\n')]),
        'no terminator': chunk(size),
        extension: Buffer.concat([chunk(`${size};ext=1`), Buffer.from('0\r\n\r\n')]),
        'with content-length': Buffer.concat([chunk(size), Buffer.from('0\r\n\r\n')]),
        'size too big': Buffer.concat([chunk('fffffffffffffffffff'), Buffer.from('0\r\n\r\n')]),
        trailer: Buffer.concat([chunk(size), Buffer.from('0\r\nX-Trailer: 1\r\n\r\n')]),
      }[broken.variant];
      break;
    }
    case 'transfer-encoding':
      headers.push(['Transfer-Encoding', broken.value]);
      break;
    case 'line endings':
      ending = broken.ending;
      break;
    case 'header bytes': {
      const bytes = Buffer.from(broken.bytes);
      rawHeaderLine = broken.inName ? Buffer.concat([Buffer.from('X-'), bytes, Buffer.from(': 1')]) : Buffer.concat([Buffer.from('X-Odd: a'), bytes, Buffer.from('b')]);
      break;
    }
    case 'obs-fold':
      headers.push(['X-Folded', 'first'], [' second', '']);
      break;
    case 'host':
      headers.shift();
      if (broken.variant === 'two') headers.unshift(['Host', 'a.test'], ['Host', 'b.test']);
      if (broken.variant === 'empty') headers.unshift(['Host', '']);
      break;
    case 'method':
      method = broken.value;
      break;
    case 'version':
      version = broken.value;
      break;
    case 'target':
      target = broken.value;
      break;
    case 'expect 100-continue':
      headers.push(['Expect', '100-continue']);
      break;
    case 'many headers':
      for (let i = 0; i < broken.count; i++) headers.push([`X-Many-${i}`, String(i)]);
      break;
    case 'long header':
      headers.push(['X-Long', 'v'.repeat(broken.size)]);
      break;
    case 'cut':
      break;
  }
  const lines = [`${method} ${target}${version === '' ? '' : ' ' + version}`];
  for (const [name, value] of headers) lines.push(value === '' && name.startsWith(' ') ? name : `${name}: ${value}`);
  if (lengthHeader !== undefined && (bodyBytes.length > 0 || broken.kind === 'content-length' || method === 'POST' || method === 'PUT')) lines.push(`Content-Length: ${lengthHeader}`);
  const head = Buffer.from(lines.join(ending) + ending, 'utf8');
  const full = Buffer.concat([head, ...(rawHeaderLine ? [rawHeaderLine, Buffer.from(ending)] : []), Buffer.from(ending), bodyBytes]);
  return broken.kind === 'cut' ? full.subarray(0, Math.floor(full.length * broken.fraction)) : full;
}
