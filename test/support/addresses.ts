// fast-check arbitraries for IP addresses and the spellings people and proxies write them in, with the
// form src/limits/ip-address.ts should read each back as, worked out here without it.
import fc from 'fast-check';
import type { Address } from '../reference/proxied-client.js';

const byte = fc.integer({ min: 0, max: 255 });
/** Groups from a small set as often as not, so that runs of zeros ("::") and shared prefixes come up. */
const group = fc.oneof(fc.constantFrom(0, 0, 1, 0xffff, 0x2001, 0xdb8), fc.integer({ min: 0, max: 0xffff }));

export const ipv4 = fc.tuple(byte, byte, byte, byte).map((bytes): Address => ({ family: 'ipv4', bytes }));
/** IPv6, IPv4-mapped ones (::ffff:a.b.c.d) among them. */
export const ipv6 = fc.oneof(
  fc.array(group, { minLength: 8, maxLength: 8 }).map((groups): Address => ({ family: 'ipv6', groups })),
  fc.tuple(byte, byte, byte, byte).map(([a, b, c, d]): Address => ({ family: 'ipv6', groups: [0, 0, 0, 0, 0, 0xffff, a * 256 + b, c * 256 + d] })),
);
export const address = fc.oneof(ipv4, ipv6);

function isMapped(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

/** The address as the bytes of its IPv4 form, when it has one (IPv4, or IPv6 mapped). */
function v4Bytes(address: Address): readonly number[] | undefined {
  if (address.family === 'ipv4') return address.bytes;
  if (!isMapped(address.groups)) return undefined;
  const [hi, lo] = [address.groups[6]!, address.groups[7]!];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255];
}

function fullGroups(address: Address): string {
  const groups = address.family === 'ipv6' ? address.groups : [0, 0, 0, 0, 0, 0xffff, address.bytes[0]! * 256 + address.bytes[1]!, address.bytes[2]! * 256 + address.bytes[3]!];
  return groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
}

/** The address as uWS reports a peer on an IPv4 socket (dotted) or an IPv6 one (eight 4-digit groups). */
export function uwsPeerText(address: Address, ipv6Socket: boolean): string {
  return address.family === 'ipv4' && !ipv6Socket ? address.bytes.join('.') : fullGroups(address);
}

/** What ip-address.ts uwsText should give: dotted for anything IPv4, mapped or not; else eight groups. */
export function expectedText(address: Address): string {
  return v4Bytes(address)?.join('.') ?? fullGroups(address);
}

/** Spellings of an IPv6 address (or of an IPv4 address mapped into IPv6) that parseIp must read. */
export function ipv6Spellings(address: Address): string[] {
  const full = fullGroups(address);
  const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
  const spellings = [full, compressed, compressed.toUpperCase(), address.family === 'ipv6' ? address.groups.map((g) => g.toString(16)).join(':') : full];
  const v4 = v4Bytes(address);
  if (v4 !== undefined) spellings.push(`::ffff:${v4.join('.')}`, `::FFFF:${v4.join('.')}`);
  return spellings;
}

/** Every spelling of the address: dotted for IPv4, and each IPv6 one. */
export function spellings(address: Address): string[] {
  return address.family === 'ipv4' ? [address.bytes.join('.'), ...ipv6Spellings(address)] : ipv6Spellings(address);
}

/** The network of `address`'s first `prefix` bits (of its own family), as an address. */
export function networkOf(address: Address, prefix: number): Address {
  const keep = (value: number, width: number, at: number) => {
    const bits = Math.max(0, Math.min(width, prefix - at));
    return bits === 0 ? 0 : value & (((1 << width) - 1) ^ ((1 << (width - bits)) - 1));
  };
  return address.family === 'ipv4'
    ? { family: 'ipv4', bytes: address.bytes.map((b, i) => keep(b, 8, 8 * i)) }
    : { family: 'ipv6', groups: address.groups.map((g, i) => keep(g, 16, 16 * i)) };
}

/** A configuration entry for a range: "network/prefix", or the bare address at full length now and then. */
export function rangeEntry(network: Address, prefix: number, bare: boolean): string {
  const text = network.family === 'ipv4' ? network.bytes.join('.') : new URL(`http://[${fullGroups(network)}]/`).hostname.slice(1, -1);
  return bare && prefix === (network.family === 'ipv4' ? 32 : 128) ? text : `${text}/${prefix}`;
}
