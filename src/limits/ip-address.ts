// IP addresses as 16 bytes, IPv4 mapped into ::ffff:0:0/96 so that one comparison serves both
// families: read from the forms configuration and proxies write, written back as uWS reports peers.
import { isIPv4, isIPv6 } from 'node:net';

/** Bytes 0-11 of an IPv4 address mapped into IPv6. */
const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] as const;

function hex4(value: number): string {
  return value.toString(16).padStart(4, '0');
}

/** The IPv6 address with every group written out as four digits ("::" expanded, an IPv4 tail as two groups). */
function expandIPv6(ip: string): string {
  let text = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${hex4(a * 256 + b)}:${hex4(c * 256 + d)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => group.padStart(4, '0')).join(':');
}

/**
 * The 16 bytes of an IPv4 address (dotted, mapped) or an IPv6 address in any spelling; undefined for
 * anything else, a zone (fe80::1%eth0), a port or brackets included. A fresh array each call.
 */
export function parseIp(text: string): Uint8Array | undefined {
  const bytes = new Uint8Array(16);
  if (isIPv4(text)) {
    bytes.set(MAPPED_PREFIX);
    const parts = text.split('.');
    for (let i = 0; i < 4; i++) bytes[12 + i] = Number(parts[i]);
    return bytes;
  }
  if (!isIPv6(text) || text.includes('%')) return undefined;
  const groups = expandIPv6(text).split(':');
  for (let i = 0; i < 8; i++) {
    const group = parseInt(groups[i]!, 16);
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  }
  return bytes;
}

/** Whether `bytes` hold an IPv4 address (mapped into IPv6). */
export function isMappedV4(bytes: Uint8Array): boolean {
  for (let i = 0; i < 12; i++) if (bytes[i] !== MAPPED_PREFIX[i]) return false;
  return true;
}

/**
 * The address in the form uWS reports an IPv4 socket's peer (dotted) for an IPv4 address, mapped or not,
 * and an IPv6 socket's (eight groups of four lower-case hex digits) for any other: so that the bucket
 * keys, the loopback test and the exempt list of client-address.ts apply to it unchanged.
 */
export function uwsText(bytes: Uint8Array): string {
  return isMappedV4(bytes) ? `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}` : fullIPv6Text(bytes);
}

/** The address as eight groups of four lower-case hex digits (an IPv4 address mapped). */
export function fullIPv6Text(bytes: Uint8Array): string {
  let text = hex4(bytes[0]! * 256 + bytes[1]!);
  for (let i = 2; i < 16; i += 2) text += ':' + hex4(bytes[i]! * 256 + bytes[i + 1]!);
  return text;
}

/** Whether the first `bits` bits of `address` and `network` agree (bits 0-128). */
export function samePrefix(address: Uint8Array, network: Uint8Array, bits: number): boolean {
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (address[i] !== network[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((address[whole]! ^ network[whole]!) & mask) === 0;
}
