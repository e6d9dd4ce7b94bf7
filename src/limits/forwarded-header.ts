// The hops a proxy chain lists in front of a request, the nearest proxy last: the `for=` of RFC 7239
// Forwarded's elements, or X-Forwarded-For's entries. Each hop is the address it names (16 bytes, see
// ip-address.ts) or undefined where it names none ("unknown", an obfuscated name, anything else).
import { parseIp } from './ip-address.js';

export type Hop = Uint8Array | undefined;

const TAB = 9;
const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const SEMICOLON = 59;
const EQUALS = 61;
const BACKSLASH = 92;

/** RFC 9110 tchar: the characters of a token (parameter names, unquoted values). */
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~") TCHAR[c.charCodeAt(0)] = 1;
for (let c = 48; c <= 57; c++) TCHAR[c] = 1;
for (let c = 65; c <= 90; c++) TCHAR[c] = TCHAR[c + 32] = 1;

function isTchar(c: number): boolean {
  return c < 128 && TCHAR[c] === 1;
}

function skipOws(text: string, i: number): number {
  while (i < text.length && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return i;
}

/** qdtext (RFC 9110 §5.6.4): HTAB, SP, VCHAR but '"' and '\', obs-text. */
function isQdtext(c: number): boolean {
  return c === TAB || c === SPACE || c === 0x21 || (c >= 0x23 && c <= 0x5b) || (c >= 0x5d && c <= 0x7e) || c >= 0x80;
}

/** A node's port (RFC 7239 §6: 1-5 digits, or "_" and an obfuscated name) from `at` to the end, or none there. */
function validPort(text: string, at: number): boolean {
  if (at === text.length) return true;
  if (text.charCodeAt(at) !== 58 /* : */) return false;
  const port = text.slice(at + 1);
  return /^(?:\d{1,5}|_[A-Za-z0-9._-]+)$/.test(port);
}

/**
 * The address a node names: IPv4 or "[IPv6]", either with a port; with `bareIPv6` (X-Forwarded-For,
 * where proxies write IPv6 unbracketed) also an IPv6 address without brackets, and then no port.
 */
function nodeAddress(text: string, bareIPv6: boolean): Hop {
  if (text.charCodeAt(0) === 91 /* [ */) {
    const close = text.indexOf(']');
    const inner = text.slice(1, close);
    return close !== -1 && inner.includes(':') && validPort(text, close + 1) ? parseIp(inner) : undefined;
  }
  const colon = text.indexOf(':');
  if (colon === -1) return parseIp(text);
  if (text.indexOf(':', colon + 1) !== -1) return bareIPv6 ? parseIp(text) : undefined;
  const ip = text.slice(0, colon);
  return validPort(text, colon) ? parseIp(ip) : undefined; // no colon left: IPv4 or nothing
}

/**
 * The quoted string starting at `i` (on its '"'): its unescaped value and the index after its closing
 * '"'; undefined when it is not closed or holds a character it may not.
 */
function quotedString(text: string, i: number): { value: string; end: number } | undefined {
  let value = '';
  for (i++; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c === QUOTE) return { value, end: i + 1 };
    if (c === BACKSLASH) {
      c = text.charCodeAt(++i); // NaN past the end
      if (!(c === TAB || c === SPACE || (c >= 0x21 && c <= 0x7e) || c >= 0x80)) return undefined;
    } else if (!isQdtext(c)) return undefined;
    value += text[i];
  }
  return undefined;
}

/**
 * Forwarded's hops, one per element that has parameters (empty list elements are skipped, RFC 9110
 * §5.6.1), left to right; an element without `for=` is a hop that names no address. Undefined when
 * the header does not parse (RFC 7239 §4: pairs of token "=" token-or-quoted-string separated by ';',
 * elements by ','; a parameter at most once an element). Whitespace around ';' and ',' is allowed.
 */
export function forwardedHops(header: string): Hop[] | undefined {
  const hops: Hop[] = [];
  const n = header.length;
  let i = 0;
  for (;;) {
    let pairs = 0;
    let hasFor = false;
    let hop: Hop;
    for (;;) {
      i = skipOws(header, i);
      const c = header.charCodeAt(i);
      if (i < n && c !== COMMA && c !== SEMICOLON) {
        const nameStart = i;
        while (i < n && isTchar(header.charCodeAt(i))) i++;
        if (i === nameStart || header.charCodeAt(i) !== EQUALS) return undefined;
        const name = header.slice(nameStart, i).toLowerCase();
        i++;
        let value: string;
        if (header.charCodeAt(i) === QUOTE) {
          const quoted = quotedString(header, i);
          if (quoted === undefined) return undefined;
          ({ value, end: i } = quoted);
        } else {
          const valueStart = i;
          while (i < n && isTchar(header.charCodeAt(i))) i++;
          if (i === valueStart) return undefined;
          value = header.slice(valueStart, i);
        }
        pairs++;
        if (name === 'for') {
          if (hasFor) return undefined;
          hasFor = true;
          hop = nodeAddress(value, false);
        }
        i = skipOws(header, i);
      }
      if (i >= n || header.charCodeAt(i) === COMMA) break;
      if (header.charCodeAt(i) !== SEMICOLON) return undefined;
      i++;
    }
    if (pairs > 0) hops.push(hop);
    if (i >= n) return hops;
    i++; // past the ','
  }
}

/**
 * X-Forwarded-For's hops, left to right: comma-separated entries (empty ones skipped) of IPv4 or
 * IPv6 addresses, bracketed or not, IPv4 and bracketed IPv6 perhaps with a port. No entry makes the
 * others unreadable: one that names no address is a hop that names none.
 */
export function forwardedForHops(header: string): Hop[] {
  const hops: Hop[] = [];
  let start = 0;
  while (start <= header.length) {
    let end = header.indexOf(',', start);
    if (end === -1) end = header.length;
    const entry = header.slice(skipOws(header, start), end).trimEnd();
    if (entry !== '') hops.push(nodeAddress(entry, true));
    start = end + 1;
  }
  return hops;
}
