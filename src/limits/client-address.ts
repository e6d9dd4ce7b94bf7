// Client addresses as uWS writes them (res.getRemoteAddressAsText()): dotted IPv4 on an IPv4 socket;
// on an IPv6 socket all eight groups as four lower-case hex digits, an IPv4 client mapped
// ("0000:0000:0000:0000:0000:ffff:7f00:0001"). Fixed widths, so prefixes are plain string tests.
import { isIPv4 } from 'node:net';
import { fullIPv6Text, isMappedV4, parseIp, uwsText } from './ip-address.js';

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

/**
 * The forms in which uWS may report a configured IP address (an IPv4 client of an IPv6 socket comes
 * mapped), the form it was written in first; undefined when `ip` is not an IP address.
 */
export function uwsForms(ip: string): string[] | undefined {
  const bytes = parseIp(ip);
  if (bytes === undefined) return undefined;
  if (!isMappedV4(bytes)) return [fullIPv6Text(bytes)];
  const forms = [uwsText(bytes), fullIPv6Text(bytes)];
  return isIPv4(ip) ? forms : forms.reverse();
}
