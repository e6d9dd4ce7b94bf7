// The peers whose Forwarded / X-Forwarded-For headers are believed (PAIRWISE_TRUSTED_PROXIES):
// IP addresses and CIDR ranges, matched against an address in any spelling parseIp reads.
import { parseIp, samePrefix } from './ip-address.js';

/** A range of the 16-byte form: IPv4 ranges sit inside ::ffff:0:0/96, so 10.0.0.0/8 is 104 bits. */
export interface IpRange {
  readonly network: Uint8Array;
  readonly bits: number;
}

/**
 * The range one configured entry names: an address (all its bits) or a CIDR range; a sentence saying
 * why when it names none. A range with bits set past its prefix (10.0.0.1/8) is refused as a likely typo.
 */
export function parseRange(entry: string): IpRange | string {
  const slash = entry.indexOf('/');
  const ipText = slash === -1 ? entry : entry.slice(0, slash);
  const network = parseIp(ipText);
  if (network === undefined) return `"${entry}" is not an IP address or CIDR range`;
  const width = ipText.includes(':') ? 128 : 32;
  let prefix = width;
  if (slash !== -1) {
    const digits = entry.slice(slash + 1);
    prefix = Number(digits);
    if (!/^\d{1,3}$/.test(digits) || prefix > width) return `"${entry}" needs a prefix length from 0 to ${width}`;
  }
  const bits = prefix + (128 - width);
  for (let bit = bits; bit < 128; bit++) {
    if ((network[bit >> 3]! & (0x80 >> (bit & 7))) !== 0) return `"${entry}" has bits set past its /${prefix} prefix`;
  }
  return { network, bits };
}

export class TrustedProxies {
  readonly #ranges: readonly IpRange[];

  /** From entries config.ts has validated (throws on one that is not). */
  constructor(entries: readonly string[]) {
    this.#ranges = entries.map((entry) => {
      const range = parseRange(entry);
      if (typeof range === 'string') throw new TypeError(`trusted proxy ${range}`);
      return range;
    });
  }

  get empty(): boolean {
    return this.#ranges.length === 0;
  }

  /** Whether `address` (any spelling, e.g. uWS's) lies in a trusted range. Linear in the entries: a handful. */
  has(address: string): boolean {
    if (this.#ranges.length === 0) return false;
    const bytes = parseIp(address);
    return bytes !== undefined && this.hasIp(bytes);
  }

  hasIp(bytes: Uint8Array): boolean {
    for (const range of this.#ranges) if (samePrefix(bytes, range.network, range.bits)) return true;
    return false;
  }
}
