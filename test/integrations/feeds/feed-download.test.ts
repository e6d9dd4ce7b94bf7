import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { downloadFeed, FeedDownloadError, isPrivateAddress, type DownloadLimits } from '../../../src/integrations/feeds/feed-download.js';

const FEED = '<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0"><channel></channel></rss>';
/** The test server is on loopback: only downloads that allow private addresses may reach it. */
const LOCAL: DownloadLimits = { timeoutMs: 1500, maxBytes: 100_000, maxRedirects: 5, allowPrivate: true };

describe('downloadFeed', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (hop) return res.writeHead(302, { location: Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}` : '/feed.xml' }).end();
      switch (url.pathname) {
        case '/feed.xml':
          if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end();
          return res.writeHead(200, { 'content-type': 'application/xml', etag: '"v1"', 'last-modified': 'Sat, 01 Nov 2025 10:00:00 GMT' }).end(FEED);
        case '/error':
          return res.writeHead(500, 'Internal Server Error').end('oops');
        case '/huge':
          res.writeHead(200, { 'content-type': 'application/xml' });
          for (let i = 0; i < 50; i++) res.write('x'.repeat(10_000));
          return res.end();
        case '/declared-huge':
          return res.writeHead(200, { 'content-length': '5000000000' }).end();
        case '/never-ends':
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.write('<rss>');
          return; // and nothing more
        case '/to-ftp':
          return res.writeHead(301, { location: 'ftp://example.com/feed.xml' }).end();
        default:
          return res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('When the feed is there, then its body streams with its version, and asked again with that version it is not modified', async () => {
    const first = await downloadFeed(`${base}/feed.xml`, {}, LOCAL);
    expect(first.status).toBe('ok');
    if (first.status !== 'ok') return;
    expect(await text(first.body)).toBe(FEED);
    expect(first.version).toEqual({ etag: '"v1"', lastModified: 'Sat, 01 Nov 2025 10:00:00 GMT' });
    expect(await downloadFeed(`${base}/feed.xml`, first.version, LOCAL)).toEqual({ status: 'not-modified' });
  });

  test('When the address is loopback, private or link-local (by name, literal or redirect), then it is refused unless private addresses are allowed', async () => {
    const strict = { ...LOCAL, allowPrivate: false };
    for (const address of [`${base}/feed.xml`, `http://localhost:${new URL(base).port}/feed.xml`, 'http://[::1]/feed.xml', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.8/feed.xml', 'http://[::ffff:127.0.0.1]/feed.xml']) {
      await expect(downloadFeed(address, {}, strict), address).rejects.toThrow(/private or special address.*PAIRWISE_FEED_ALLOW_PRIVATE/);
    }
  });

  test('When the URL is not http(s), redirects too often or to another scheme, or answers 500, then it says so', async () => {
    await expect(downloadFeed('file:///etc/passwd', {}, LOCAL)).rejects.toThrow('the feed URL must be an http:// or https:// URL');
    await expect(downloadFeed('https://user:pw@example.com/f.xml', {}, LOCAL)).rejects.toThrow('must not carry a user name or password');
    expect((await downloadFeed(`${base}/hop/4`, {}, LOCAL)).status).toBe('ok');
    await expect(downloadFeed(`${base}/hop/5`, {}, LOCAL)).rejects.toThrow('redirected more than 5 times');
    await expect(downloadFeed(`${base}/to-ftp`, {}, LOCAL)).rejects.toThrow('redirected to ftp: URL');
    await expect(downloadFeed(`${base}/error`, {}, LOCAL)).rejects.toThrow(`${base}/error answered 500 Internal Server Error`);
  });

  test('When the feed is larger than the cap or never ends, then reading it fails with the reason, within the deadline', async () => {
    await expect(downloadFeed(`${base}/declared-huge`, {}, LOCAL)).rejects.toThrow(/is 5000000000 bytes, over the 100000 bytes/);
    const huge = await downloadFeed(`${base}/huge`, {}, LOCAL);
    if (huge.status === 'ok') await expect(text(huge.body)).rejects.toThrow(/sent more than the 100000 bytes/);
    const endless = await downloadFeed(`${base}/never-ends`, {}, LOCAL);
    if (endless.status === 'ok') await expect(text(endless.body)).rejects.toBeInstanceOf(FeedDownloadError);
  });
});

describe('isPrivateAddress', () => {
  test('When given special and public addresses of both families, then only the public ones pass', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', 'not an ip']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1']) expect(isPrivateAddress(address), address).toBe(false);
  });
});
