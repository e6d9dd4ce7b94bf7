// The widget bundle: small (≤ 15 KB gzipped), self-contained, and served as /widget.js.
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { widgetBundlePath } from '../../src/http/routes/widget.js';
import { startTestService, type TestService } from '../support/service.js';

const MAX_GZIPPED_BYTES = 15 * 1024;

describe('widget bundle', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  test('When the widget is built, then it is at most 15 KB gzipped and needs nothing at run time', () => {
    const file = widgetBundlePath();
    expect(file).toBeDefined();
    const bundle = readFileSync(file!);
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    console.log(`widget.js: ${bundle.length} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
    // One IIFE: no module syntax, no require, no import() of anything else.
    const text = bundle.toString('utf8');
    expect(text).not.toMatch(/\brequire\(|\bimport\s*[({"']|^\s*export\b/m);
  });

  test('When a browser asks for /widget.js, then it gets JavaScript with cache headers, gzipped if it accepts gzip', async () => {
    const plain = await fetch(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300');
    const body = Buffer.from(await plain.arrayBuffer());
    expect(body.equals(readFileSync(widgetBundlePath()!))).toBe(true);

    // fetch would decode gzip itself: read the raw bytes with node:http instead.
    const { request } = await import('node:http');
    const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(gunzipSync(raw.bytes).equals(body)).toBe(true);
    expect(raw.bytes.length).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
  });
});
