import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseRange, TrustedProxies } from '../../src/limits/trusted-proxies.js';
import { isTrusted, referenceTrust, type TrustedRange } from '../reference/proxied-client.js';
import { address, networkOf, rangeEntry, spellings, uwsPeerText } from '../support/addresses.js';

const range = fc
  .tuple(address, fc.nat(128), fc.boolean())
  .map(([ip, length, bare]) => {
    const prefix = ip.family === 'ipv4' ? length % 33 : length;
    return { network: networkOf(ip, prefix), prefix, bare };
  });

describe('trusted proxies', () => {
  test('When addresses and ranges are configured, then an address is trusted exactly when node’s BlockList holds it, in any spelling', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 4 }), fc.array(address, { minLength: 1, maxLength: 6 }), (ranges, candidates) => {
        const trusted = new TrustedProxies(ranges.map((r) => rangeEntry(r.network, r.prefix, r.bare)));
        const reference = referenceTrust(ranges as TrustedRange[]);
        // Candidates inside the ranges too, not only random ones.
        for (const candidate of [...candidates, ...ranges.map((r) => r.network)]) {
          const expected = isTrusted(reference, candidate);
          for (const text of [...spellings(candidate), uwsPeerText(candidate, true)]) expect(trusted.has(text), text).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('When the list is empty, then nothing is trusted', () => {
    const none = new TrustedProxies([]);
    expect(none.empty).toBe(true);
    expect(none.has('127.0.0.1')).toBe(false);
  });

  test('When an IPv4 range is configured, then an IPv6 socket’s mapped form of its addresses is trusted, and ::/0 covers IPv4 too', () => {
    const trusted = new TrustedProxies(['10.0.0.0/8', 'fd00::/8']);
    expect(trusted.has('10.1.2.3')).toBe(true);
    expect(trusted.has('0000:0000:0000:0000:0000:ffff:0a01:0203')).toBe(true);
    expect(trusted.has('11.0.0.1')).toBe(false);
    expect(trusted.has('fd12:3456:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(trusted.has('fe80::1')).toBe(false);
    expect(new TrustedProxies(['::/0']).has('203.0.113.7')).toBe(true);
    expect(new TrustedProxies(['0.0.0.0/0']).has('2001:db8::1')).toBe(false);
  });

  test('When an entry is not an address or range, has a bad prefix or bits past its prefix, then it is refused with the entry named', () => {
    expect(parseRange('10.0.0.0/8')).toMatchObject({ bits: 104 });
    expect(parseRange('::1')).toMatchObject({ bits: 128 });
    expect(parseRange('proxy.internal')).toBe('"proxy.internal" is not an IP address or CIDR range');
    expect(parseRange('10.0.0.0/33')).toBe('"10.0.0.0/33" needs a prefix length from 0 to 32');
    expect(parseRange('fd00::/129')).toBe('"fd00::/129" needs a prefix length from 0 to 128');
    for (const bad of ['10.0.0.0/', '10.0.0.0/+8', '10.0.0.0/8/8', '10.0.0.0/ 8', '10.0.0.0/1e1']) expect(parseRange(bad)).toMatch(/needs a prefix length|is not an IP/);
    expect(parseRange('10.0.0.1/8')).toBe('"10.0.0.1/8" has bits set past its /8 prefix');
    expect(parseRange('fd00::1/8')).toBe('"fd00::1/8" has bits set past its /8 prefix');
    expect(parseRange('[::1]')).toMatch(/is not an IP/);
    expect(() => new TrustedProxies(['10.0.0.1/8'])).toThrow(TypeError);
  });
});
