// Client addresses as uWS writes them (res.getRemoteAddressAsText()): dotted IPv4 on an IPv4 socket;
// on an IPv6 socket all eight groups as four lower-case hex digits, an IPv4 client mapped
// ("0000:0000:0000:0000:0000:ffff:7f00:0001"). Fixed widths, so prefixes are plain string tests.
import { isIPv4, isIPv6 } from 'node:net';

const MAPPED_V4 = '0000:0000:0000:0000:0000:ffff:';
const V6_LOOPBACK = '0000:0000:0000:0000:0000:0000:0000:0001';
/** Length of a full IPv6 address in uWS's form, and of its first four groups (the /64). */
const V6_LENGTH = 39;
const V6_PREFIX_64 = 19;

/** Whether an address in uWS's form is loopback: 127.0.0.0/8, ::1, or 127/8 mapped into IPv6. */
export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === V6_LOOPBACK || address.startsWith(MAPPED_V4 + '7f');
}

/**
 * The bucket an address counts against: itself, except that a native IPv6 address counts by its
 * /64, since one host or home network is usually handed a whole /64 and may pick any address in it.
 */
export function bucketKeyOf(address: string): string {
  return address.length === V6_LENGTH && !address.startsWith(MAPPED_V4) ? address.slice(0, V6_PREFIX_64) : address;
}

function hex4(value: number): string {
  return value.toString(16).padStart(4, '0');
}

/** The IPv6 address with every group written out (":: " expanded, an IPv4 tail as two groups). */
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
 * The forms in which uWS may report a configured IP address (an IPv4 client of an IPv6 socket comes
 * mapped); undefined when `ip` is not an IP address.
 */
export function uwsForms(ip: string): string[] | undefined {
  if (isIPv4(ip)) {
    const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
    return [ip, `${MAPPED_V4}${hex4(a * 256 + b)}:${hex4(c * 256 + d)}`];
  }
  if (!isIPv6(ip) || ip.includes('%')) return undefined;
  const full = expandIPv6(ip);
  if (!full.startsWith(MAPPED_V4)) return [full];
  const low = parseInt(full.slice(30, 34), 16);
  const high = parseInt(full.slice(35), 16);
  return [full, `${low >> 8}.${low & 255}.${high >> 8}.${high & 255}`];
}
