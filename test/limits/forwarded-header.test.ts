import { describe, expect, test } from 'vitest';
import { forwardedForHops, forwardedHops, type Hop } from '../../src/limits/forwarded-header.js';
import { uwsText } from '../../src/limits/ip-address.js';

function texts(hops: readonly Hop[] | undefined): (string | undefined)[] | undefined {
  return hops?.map((hop) => (hop === undefined ? undefined : uwsText(hop)));
}

const V6 = '2001:0db8:cafe:0000:0000:0000:0000:0017';

describe('Forwarded (RFC 7239)', () => {
  test('When the header is one of the RFC’s examples, then each element’s for= is its hop', () => {
    expect(texts(forwardedHops('for="_gazonk"'))).toEqual([undefined]);
    expect(texts(forwardedHops('For="[2001:db8:cafe::17]:4711"'))).toEqual([V6]);
    expect(texts(forwardedHops('for=192.0.2.60;proto=http;by=203.0.113.43'))).toEqual(['192.0.2.60']);
    expect(texts(forwardedHops('for=192.0.2.43, for=198.51.100.17'))).toEqual(['192.0.2.43', '198.51.100.17']);
    expect(texts(forwardedHops('for=192.0.2.43,for="[2001:db8:cafe::17]",for=unknown'))).toEqual(['192.0.2.43', V6, undefined]);
  });

  test('When values are quoted, escaped, ported or carry separators inside quotes, then they are read as one value', () => {
    expect(texts(forwardedHops('for="192.0.2.60:8080"'))).toEqual(['192.0.2.60']);
    expect(texts(forwardedHops('for="[2001:db8:cafe::17]:_port"'))).toEqual([V6]);
    expect(texts(forwardedHops('for="\\[2001:db8:cafe::17\\]"'))).toEqual([V6]);
    expect(texts(forwardedHops('host="a,b;c=d"; for=192.0.2.1 ;proto=https , for=192.0.2.2'))).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(texts(forwardedHops('proto=https, , for=192.0.2.2;'))).toEqual([undefined, '192.0.2.2']);
    expect(texts(forwardedHops(' , ,'))).toEqual([]);
  });

  test('When a for= value is not a node (bare IPv6, a bad port, an IPv4 in brackets), then that hop names no address', () => {
    for (const value of ['"2001:db8::1"', '"[2001:db8::1]:123456"', '"192.0.2.1:"', '"[192.0.2.1]"', '"[2001:db8::1"', '""', 'localhost', '"192.0.2.1:80:80"']) {
      expect(texts(forwardedHops(`for=${value}`)), value).toEqual([undefined]);
    }
  });

  test('When the header does not parse, then there are no hops at all', () => {
    for (const bad of ['for', 'for=', '=1.2.3.4', 'for=1.2.3.4 x', 'for="1.2.3.4', 'for="1.2.3.4\\', 'for=1.2.3.4;for=5.6.7.8', 'for="[::1]:80', 'for = 1.2.3.4', 'for=[::1]', 'for=1.2.3.4:80', 'for="a\u0001"', 'fo r=1.2.3.4']) {
      expect(forwardedHops(bad), bad).toBeUndefined();
    }
  });
});

describe('X-Forwarded-For', () => {
  test('When entries are IPv4 or IPv6, bracketed or not, with ports or not, then each is a hop', () => {
    expect(texts(forwardedForHops('203.0.113.7'))).toEqual(['203.0.113.7']);
    expect(texts(forwardedForHops('203.0.113.7:1234 ,2001:db8:cafe::17,[2001:db8:cafe::17]:80,  [::1]'))).toEqual([
      '203.0.113.7',
      V6,
      V6,
      '0000:0000:0000:0000:0000:0000:0000:0001',
    ]);
    expect(texts(forwardedForHops('::ffff:198.51.100.9'))).toEqual(['198.51.100.9']);
  });

  test('When an entry names no address, then only that hop is unknown; empty entries are skipped', () => {
    expect(texts(forwardedForHops('unknown, garbage"; , 198.51.100.9,'))).toEqual([undefined, undefined, '198.51.100.9']);
    expect(texts(forwardedForHops('1.2.3.4:port, [::1, 1.2.3'))).toEqual([undefined, undefined, undefined]);
    expect(texts(forwardedForHops(''))).toEqual([]);
  });
});
