// The client of a proxied request against the plain reference (test/reference/proxied-client.ts):
// hops drawn as data, written as Forwarded or X-Forwarded-For in the spellings proxies use, trust
// ranges drawn around the same addresses so that chains of trusted proxies come up.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { resolveClient } from '../../src/limits/proxied-client.js';
import { TrustedProxies } from '../../src/limits/trusted-proxies.js';
import { referenceClient, referenceTrust, type Address, type TrustedRange } from '../reference/proxied-client.js';
import { address, expectedText, ipv6Spellings, networkOf, rangeEntry, uwsPeerText } from '../support/addresses.js';

/** How one hop is written: which spelling, with a port or not, quoted or escaped (Forwarded), extra parameters. */
const style = fc.record({ spelling: fc.nat(20), port: fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined }), quote: fc.nat(3), extra: fc.nat(5), nameCase: fc.nat(2) });
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

const NO_ADDRESS_XFF = ['unknown', '_hidden', 'not-an-ip', '999.1.1.1', '[::1', '1.2.3.4:port'];
const NO_ADDRESS_FOR = ['unknown', '"_gazonk"', '"2001:db8::1"', '"[::1"', '""', '"1.2.3.4:"'];

function v6Spelling(hop: Address, s: Style): string {
  const all = ipv6Spellings(hop);
  return all[s.spelling % all.length]!;
}

function xffEntry(hop: Address | undefined, s: Style): string {
  if (hop === undefined) return NO_ADDRESS_XFF[s.spelling % NO_ADDRESS_XFF.length]!;
  if (hop.family === 'ipv4' && s.spelling % 3 !== 0) return hop.bytes.join('.') + (s.port === undefined ? '' : `:${s.port}`);
  const text = v6Spelling(hop, s);
  if (s.quote === 0) return text; // bare: no port then
  return `[${text}]` + (s.port === undefined ? '' : `:${s.port}`);
}

function quoted(value: string, s: Style): string {
  // Escaping every character is allowed (quoted-pair) and must read the same.
  return s.quote === 3 ? `"${value.replace(/./g, (c) => '\\' + c)}"` : `"${value}"`;
}

function forValue(hop: Address | undefined, s: Style): string {
  if (hop === undefined) return NO_ADDRESS_FOR[s.spelling % NO_ADDRESS_FOR.length]!;
  if (hop.family === 'ipv4' && s.spelling % 3 !== 0) {
    const text = hop.bytes.join('.');
    if (s.port === undefined && s.quote === 0) return text; // a token
    return quoted(s.port === undefined ? text : `${text}:${s.port}`, s);
  }
  return quoted(`[${v6Spelling(hop, s)}]` + (s.port === undefined ? '' : `:${s.port}`), s);
}

const EXTRA = ['proto=https', 'by="[2001:db8::1]:80"', 'host="shop.example;a=b, c"', 'by=_proxy1', 'proto=http;host=example.com'];

function forwardedElement(hop: Address | undefined, s: Style, omitFor: boolean): string {
  const name = ['for', 'For', 'FOR'][s.nameCase]!;
  const pairs = omitFor ? [] : [`${name}=${forValue(hop, s)}`];
  if (s.extra < EXTRA.length) pairs.splice(s.extra % 2 === 0 ? 0 : pairs.length, 0, EXTRA[s.extra]!);
  if (pairs.length === 0) pairs.push('proto=https');
  return pairs.join(s.quote === 1 ? ' ; ' : ';');
}

interface Chain {
  hops: (Address | undefined)[];
  styles: Style[];
  /** Forwarded elements written without for= (a hop that names no address). */
  omitFor: boolean[];
}

const SEPARATORS = [',', ', ', ' ,  ', ', , '];

function writeXff(chain: Chain): string {
  return chain.hops.map((hop, i) => xffEntry(hop, chain.styles[i]!)).reduce((text, entry, i) => (i === 0 ? entry : text + SEPARATORS[chain.styles[i]!.extra % 4] + entry), '');
}

function writeForwarded(chain: Chain): string {
  return chain.hops
    .map((hop, i) => forwardedElement(hop, chain.styles[i]!, chain.omitFor[i]! && hop === undefined))
    .reduce((text, element, i) => (i === 0 ? element : text + SEPARATORS[chain.styles[i]!.extra % 4] + element), '');
}

/** A case: a pool of addresses, ranges around some of them, a peer and chains of hops drawn from the pool. */
const scenario = fc
  .array(address, { minLength: 1, maxLength: 5 })
  .chain((pool) => {
    const member = fc.nat(pool.length - 1).map((i) => pool[i]!);
    const hop = fc.option(member, { nil: undefined, freq: 6 });
    const chain = fc.integer({ min: 0, max: 6 }).chain((length) =>
      fc.record({
        hops: fc.array(hop, { minLength: length, maxLength: length }),
        styles: fc.array(style, { minLength: length, maxLength: length }),
        omitFor: fc.array(fc.boolean(), { minLength: length, maxLength: length }),
      }),
    );
    const range = fc.tuple(member, fc.nat(128), fc.boolean()).map(([ip, length, bare]) => {
      const prefix = ip.family === 'ipv4' ? [32, 24, 8, length % 33][length % 4]! : [128, 64, 8, length][length % 4]!;
      return { network: networkOf(ip, prefix), prefix, bare };
    });
    return fc.record({
      ranges: fc.array(range, { maxLength: 4 }),
      peer: fc.oneof(member, address),
      ipv6Socket: fc.boolean(),
      forwarded: fc.option(chain, { nil: undefined }),
      xff: fc.option(chain, { nil: undefined }),
    });
  });

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function trustOf(s: Scenario): TrustedProxies {
  return new TrustedProxies(s.ranges.map((r) => rangeEntry(r.network, r.prefix, r.bare)));
}

function headersOf(s: Scenario): { forwarded: string; xff: string } {
  return { forwarded: s.forwarded === undefined ? '' : writeForwarded(s.forwarded), xff: s.xff === undefined ? '' : writeXff(s.xff) };
}

/** The chain the resolution should read: Forwarded when written (non-empty), else X-Forwarded-For. */
function usedChain(s: Scenario, headers: { forwarded: string; xff: string }): Chain | undefined {
  if (headers.forwarded !== '') return s.forwarded;
  return headers.xff !== '' ? s.xff : undefined;
}

describe('the client of a proxied request', () => {
  test('When hops are written in any spelling, then the client is the one the reference picks: the rightmost untrusted hop, else the leftmost', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const headers = headersOf(s);
        const peer = uwsPeerText(s.peer, s.ipv6Socket);
        const chain = usedChain(s, headers);
        const expected = referenceClient(s.peer, chain?.hops, referenceTrust(s.ranges as TrustedRange[]));
        const got = resolveClient(peer, headers.forwarded, headers.xff, trustOf(s));
        if (expected.kind === 'peer') expect(got).toBe(peer);
        else if (expected.kind === 'unusable') expect(got).toBeUndefined();
        else expect(got).toBe(expectedText(chain!.hops[expected.index]!));
      }),
      { numRuns: 2000 },
    );
  });

  test('When the peer is not a trusted proxy, then its headers are never read, whatever they hold', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('10.0.0.0/8', 'fd00::/8', '192.0.2.1'), { maxLength: 3 }), address, fc.string(), fc.string(), (entries, peerAddress, forwarded, xff) => {
        const trusted = new TrustedProxies(entries);
        const peer = uwsPeerText(peerAddress, false);
        fc.pre(!trusted.has(peer));
        expect(resolveClient(peer, forwarded, xff, trusted)).toBe(peer);
        expect(resolveClient(peer, `for=${expectedText(peerAddress)}`, '198.51.100.9', trusted)).toBe(peer);
      }),
    );
  });

  test('When a trusted proxy sends any bytes at all, then resolving never throws and yields the peer, no one, or an address in uWS form', () => {
    const trusted = new TrustedProxies(['127.0.0.1', '10.0.0.0/8']);
    const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[\x20-\x7e]{0,40}$/), fc.stringMatching(/^(?:[0-9a-fA-F:.\[\]",;= _]|for=){0,40}$/));
    fc.assert(
      fc.property(anyText, anyText, (forwarded, xff) => {
        const got = resolveClient('127.0.0.1', forwarded, xff, trusted);
        if (got !== undefined && got !== '127.0.0.1') expect(got).toMatch(/^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{4}(?::[0-9a-f]{4}){7})$/);
      }),
      { numRuns: 1000 },
    );
  });

  test('When trusted hops are appended on the right of a non-empty list, then the client stays the same', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.constantFrom('xff', 'forwarded'), (s, picks, header) => {
        const chain = header === 'xff' ? s.xff : s.forwarded;
        fc.pre(chain !== undefined && chain.hops.length > 0 && s.ranges.length > 0);
        const headers = headersOf({ ...s, xff: header === 'xff' ? s.xff : undefined, forwarded: header === 'forwarded' ? s.forwarded : undefined });
        const trusted = trustOf(s);
        const peer = uwsPeerText(s.peer, s.ipv6Socket);
        const before = resolveClient(peer, headers.forwarded, headers.xff, trusted);
        // A trusted proxy's address: each range's network lies in it.
        const appended = picks.map((i) => expectedText(s.ranges[i % s.ranges.length]!.network));
        const after =
          header === 'xff'
            ? resolveClient(peer, headers.forwarded, [headers.xff, ...appended].join(', '), trusted)
            : resolveClient(peer, [headers.forwarded, ...appended.map((ip) => `for="${ip.includes(':') ? `[${ip}]` : ip}"`)].join(', '), headers.xff, trusted);
        expect(after).toBe(before);
      }),
      { numRuns: 500 },
    );
  });

  test('When a proxy appends a Forwarded element that does not parse, then no client is named, however the rest reads', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        fc.pre(s.forwarded !== undefined);
        const headers = headersOf(s);
        const trusted = trustOf(s);
        const peer = uwsPeerText(s.peer, s.ipv6Socket);
        const broken = `${headers.forwarded}, for="198.51.100.9`;
        expect(resolveClient(peer, broken, headers.xff, trusted)).toBe(trusted.has(peer) ? undefined : peer);
      }),
    );
  });

  test('When the examples of the docs are sent through a proxy on 127.0.0.1, then the shopper is found', () => {
    const trusted = new TrustedProxies(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    expect(resolveClient('127.0.0.1', '', '203.0.113.7', trusted)).toBe('203.0.113.7');
    // The client wrote its own X-Forwarded-For; nginx appended the address it saw.
    expect(resolveClient('127.0.0.1', '', '198.51.100.1, 203.0.113.7', trusted)).toBe('203.0.113.7');
    // A CDN, then an internal load balancer, then the peer.
    expect(resolveClient('127.0.0.1', '', '203.0.113.7, 10.1.2.3', trusted)).toBe('203.0.113.7');
    expect(resolveClient('0000:0000:0000:0000:0000:0000:0000:0001', 'for="[2001:db8:cafe::17]:4711";proto=https', '', trusted)).toBe('2001:0db8:cafe:0000:0000:0000:0000:0017');
    // Forwarded first: X-Forwarded-For is then not read.
    expect(resolveClient('127.0.0.1', 'for=192.0.2.60', '203.0.113.7', trusted)).toBe('192.0.2.60');
    expect(resolveClient('127.0.0.1', '', '10.0.0.2, 10.0.0.1', trusted)).toBe('10.0.0.2');
    expect(resolveClient('127.0.0.1', '', '', trusted)).toBe('127.0.0.1');
    expect(resolveClient('127.0.0.1', '', 'unknown', trusted)).toBeUndefined();
    expect(resolveClient('127.0.0.1', 'for=unknown', '203.0.113.7', trusted)).toBeUndefined();
    expect(resolveClient('127.0.0.2', '', '203.0.113.7', trusted)).toBe('127.0.0.2');
  });
});
