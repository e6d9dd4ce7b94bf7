import { describe, expect, test } from 'vitest';
import { bucketKeyOf, isLoopback, uwsForms } from '../../src/limits/client-address.js';

describe('client addresses', () => {
  test('When an address is configured, then it is matched in every form uWS reports it in', () => {
    expect(uwsForms('10.0.0.5')).toEqual(['10.0.0.5', '0000:0000:0000:0000:0000:ffff:0a00:0005']);
    expect(uwsForms('::ffff:10.0.0.5')).toEqual(['0000:0000:0000:0000:0000:ffff:0a00:0005', '10.0.0.5']);
    expect(uwsForms('2001:DB8::1')).toEqual(['2001:0db8:0000:0000:0000:0000:0000:0001']);
    expect(uwsForms('::1')).toEqual(['0000:0000:0000:0000:0000:0000:0000:0001']);
    expect(uwsForms('1::')).toEqual(['0001:0000:0000:0000:0000:0000:0000:0000']);
    expect(uwsForms('2001:db8:1:2:3:4:5:6')).toEqual(['2001:0db8:0001:0002:0003:0004:0005:0006']);
  });

  test('When a configured value is not an IP address, then it is refused', () => {
    for (const bad of ['', 'localhost', '10.0.0', '10.0.0.256', 'fe80::1%eth0', '2001:db8::/64']) expect(uwsForms(bad)).toBeUndefined();
  });

  test('When an address is loopback in any form, then it is recognized', () => {
    for (const address of ['127.0.0.1', '127.3.4.5', '0000:0000:0000:0000:0000:0000:0000:0001', '0000:0000:0000:0000:0000:ffff:7f00:0001']) {
      expect(isLoopback(address)).toBe(true);
    }
    for (const address of ['10.0.0.1', '0000:0000:0000:0000:0000:ffff:0a00:0001', '2001:0db8:0000:0000:0000:0000:0000:0001']) {
      expect(isLoopback(address)).toBe(false);
    }
  });

  test('When a client uses IPv6, then its whole /64 shares one bucket; IPv4, mapped or not, counts per address', () => {
    expect(bucketKeyOf('2001:0db8:0001:0002:0003:0004:0005:0006')).toBe('2001:0db8:0001:0002');
    expect(bucketKeyOf('2001:0db8:0001:0002:ffff:0000:0000:0001')).toBe('2001:0db8:0001:0002');
    expect(bucketKeyOf('0000:0000:0000:0000:0000:ffff:0a00:0005')).toBe('0000:0000:0000:0000:0000:ffff:0a00:0005');
    expect(bucketKeyOf('203.0.113.7')).toBe('203.0.113.7');
  });
});
