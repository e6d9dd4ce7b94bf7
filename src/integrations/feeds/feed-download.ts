// Downloads a merchant's feed URL without letting it reach what it should not: only http(s), every
// address a host name resolves to checked at connect time (so a name cannot resolve to a public
// address when checked and a private one when used), loopback, private, link-local and other
// special ranges refused unless allowed (PAIRWISE_FEED_ALLOW_PRIVATE), redirects followed a bounded
// number of times and each checked again, a deadline for the whole download and a cap on its bytes.
// Conditional: with the ETag or Last-Modified of the last pull, an unchanged feed is a 304.
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform, type Readable } from 'node:stream';
import { isMappedV4, parseIp } from '../../limits/ip-address.js';

export interface DownloadLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Whether loopback and private addresses may be fetched (a feed on the same network). */
  allowPrivate: boolean;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { timeoutMs: 120_000, maxBytes: 1024 ** 3, maxRedirects: 5, allowPrivate: false };

/** What the server said about the version it sent, to ask for it conditionally next time. */
export interface FeedVersion {
  etag?: string;
  lastModified?: string;
}

export type Download = { status: 'not-modified' } | { status: 'ok'; body: Readable; version: FeedVersion; contentType: string | undefined; url: string };

/** A download that failed: the message says what and where, for the merchant. */
export class FeedDownloadError extends Error {}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Whether `address` is one a feed may not be fetched from by default. IPv4 mapped into IPv6 (::ffff:a.b.c.d) is judged as IPv4. */
export function isPrivateAddress(address: string): boolean {
  const bytes = parseIp(address);
  if (bytes === undefined) return true;
  if (isMappedV4(bytes)) return PRIVATE.check(bytes.slice(12).join('.'), 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

/** dns.lookup that refuses private addresses: used by the connection itself, so what is checked is what is used. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as { address: string; family: number }[];
      const refused = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (refused !== undefined) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private or special address`), { code: 'EPRIVATE' }), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function get(url: URL, version: FeedVersion, limits: DownloadLimits, signal: AbortSignal): Promise<IncomingMessage> {
  const headers: Record<string, string> = { accept: 'application/xml, text/xml, application/rss+xml, text/tab-separated-values, text/plain;q=0.9, */*;q=0.5', 'user-agent': 'Pairwise feed pull' };
  if (version.etag) headers['if-none-match'] = version.etag;
  if (version.lastModified) headers['if-modified-since'] = version.lastModified;
  // An address literal is checked here: lookup() is not called for one.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !limits.allowPrivate && isPrivateAddress(literal)) {
    return Promise.reject(new FeedDownloadError(`${url.host} is a private or special address: feeds are fetched from public addresses only (PAIRWISE_FEED_ALLOW_PRIVATE=1 allows others)`));
  }
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).get(url, { headers, lookup: guardedLookup(limits.allowPrivate), signal, agent: false }, resolve);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPRIVATE') reject(new FeedDownloadError(`${error.message}: feeds are fetched from public addresses only (PAIRWISE_FEED_ALLOW_PRIVATE=1 allows others)`));
      else if (error.name === 'AbortError') reject(new FeedDownloadError(`${url.href} did not answer within ${limits.timeoutMs / 1000} s`));
      else reject(new FeedDownloadError(`${url.href} could not be fetched: ${error.code ?? error.message}`));
    });
  });
}

/** Checks that a feed URL can be given at all (http or https, a host); the message says why not. */
export function checkFeedUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}

/**
 * Starts downloading `address`: resolves with the body as a stream (which errors past the deadline or
 * the byte cap) or with not-modified; rejects with FeedDownloadError for an address or answer that
 * cannot be a feed download.
 */
export async function downloadFeed(address: string, version: FeedVersion, limits: DownloadLimits = DEFAULT_DOWNLOAD_LIMITS): Promise<Download> {
  const problem = checkFeedUrl(address);
  if (problem !== undefined) throw new FeedDownloadError(`the feed URL ${problem}`);
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), limits.timeoutMs);
  let url = new URL(address);
  try {
    for (let redirects = 0; ; redirects++) {
      const res = await get(url, version, limits, controller.signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        res.resume();
        const location = res.headers.location;
        if (location === undefined) throw new FeedDownloadError(`${url.href} answered ${status} without a Location`);
        if (redirects >= limits.maxRedirects) throw new FeedDownloadError(`${address} redirected more than ${limits.maxRedirects} times`);
        url = new URL(location, url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FeedDownloadError(`${address} redirected to ${url.protocol} URL`);
        continue;
      }
      if (status === 304) {
        res.resume();
        clearTimeout(deadline);
        return { status: 'not-modified' };
      }
      if (status !== 200) {
        res.resume();
        throw new FeedDownloadError(`${url.href} answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        res.destroy();
        throw new FeedDownloadError(`${url.href} is ${declared} bytes, over the ${limits.maxBytes} bytes a feed may take`);
      }
      let bytes = 0;
      const capped = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > limits.maxBytes) done(new FeedDownloadError(`${url.href} sent more than the ${limits.maxBytes} bytes a feed may take`));
          else done(null, chunk);
        },
      });
      res.on('error', (error) => capped.destroy(error.name === 'AbortError' ? new FeedDownloadError(`${url.href} took longer than ${limits.timeoutMs / 1000} s`) : error));
      controller.signal.addEventListener('abort', () => capped.destroy(new FeedDownloadError(`${url.href} took longer than ${limits.timeoutMs / 1000} s`)), { once: true });
      capped.on('close', () => clearTimeout(deadline));
      // A body dropped unread must not take the process down when the deadline destroys it: the
      // reader, when there is one, still gets the error through its own listener.
      capped.on('error', () => {});
      res.pipe(capped);
      const sent: FeedVersion = {};
      if (typeof res.headers.etag === 'string') sent.etag = res.headers.etag;
      if (typeof res.headers['last-modified'] === 'string') sent.lastModified = res.headers['last-modified'];
      return { status: 'ok', body: capped, version: sent, contentType: res.headers['content-type'], url: url.href };
    }
  } catch (error) {
    clearTimeout(deadline);
    throw error;
  }
}
