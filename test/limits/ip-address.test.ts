import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseIp, samePrefix, uwsText } from '../../src/limits/ip-address.js';
import { plainText } from '../reference/proxied-client.js';
import { address, expectedText, networkOf, spellings } from '../support/addresses.js';

describe('IP addresses as 16 bytes', () => {
  test('When an address is written in any of its spellings, then each reads back to the same bytes and the form uWS reports', () => {
    fc.assert(
      fc.property(address, (ip) => {
        const forms = spellings(ip).map((text) => parseIp(text));
        expect(forms[0]).toBeDefined();
        for (const bytes of forms) expect(bytes).toEqual(forms[0]);
        expect(uwsText(forms[0]!)).toBe(expectedText(ip));
      }),
    );
  });

  test('When a text is not a bare IP address (a port, brackets, a zone, a range, a name), then it reads as none', () => {
    for (const bad of ['', 'localhost', '1.2.3', '1.2.3.256', '01.2.3.4', '1.2.3.4:80', '[::1]', 'fe80::1%eth0', '10.0.0.0/8', '1:2:3:4:5:6:7:8:9', ' 1.2.3.4']) {
      expect(parseIp(bad), bad).toBeUndefined();
    }
  });

  test('When two addresses are compared on a prefix, then the answer is what node’s BlockList says of the range', () => {
    fc.assert(
      fc.property(address, address, fc.nat(128), (ip, other, length) => {
        const prefix = ip.family === 'ipv4' ? length % 33 : length;
        const network = networkOf(ip, prefix);
        const list = new BlockList();
        list.addSubnet(plainText(network), prefix, network.family);
        for (const candidate of [ip, other]) {
          const bits = prefix + (ip.family === 'ipv4' ? 96 : 0);
          expect(samePrefix(parseIp(plainText(candidate))!, parseIp(plainText(network))!, bits)).toBe(list.check(plainText(candidate), candidate.family));
        }
      }),
      { numRuns: 300 },
    );
  });
});
