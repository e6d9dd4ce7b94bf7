// The route pipeline (transport/route.ts) for a route that authenticates by a platform's signature
// over the raw body, as a webhook does: a small route on a bare uWS app, its body handed over as the
// exact bytes received, the signature checked before anything parses them, its own cap (413 past
// it, declared or counted), and no CORS. The OpenAPI document describes such a route from the same
// declaration.
import { createHmac, timingSafeEqual } from 'node:crypto';
import uWS from 'uWebSockets.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { openApiDocument } from '../../src/http/openapi/document.js';
import { declare, type ShopCaller } from '../../src/http/route-declaration.js';
import { Lifecycle } from '../../src/transport/lifecycle.js';
import { route, type Call, type SignatureCheck } from '../../src/transport/route.js';
import { header, rawRequest } from '../support/raw-http.js';
import { newShop, tempDataDir, testEnv } from '../support/service.js';

const SECRET = 'whsec-test';
const SIGNATURE = 'x-test-signature';
const MAX_BYTES = 1000;

const sign = (body: Buffer | string): string => createHmac('sha256', SECRET).update(body).digest('base64');

/** The shop whose secret signs the body (one shop here); unauthorized otherwise, in constant time. */
const verify: SignatureCheck = (request, body) => {
  const presented = Buffer.from(request.headers?.[SIGNATURE] ?? '', 'base64');
  const expected = createHmac('sha256', SECRET).update(body).digest();
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw new AppError('unauthorized', 'the signature does not sign this body');
  return { shopId: 'shop-a' };
};

describe('a signed route on the pipeline', () => {
  const received: { shopId: string; body: Buffer; topic: string }[] = [];
  const lifecycle = new Lifecycle();
  let listen: uWS.us_listen_socket;
  let port: number;

  beforeAll(async () => {
    const app = uWS.App();
    const handler = (call: Call<ShopCaller, Buffer>) => {
      received.push({ shopId: call.principal.shopId, body: call.body, topic: call.request.headers?.['x-test-topic'] ?? '' });
      call.json('{"received":true}');
    };
    app.post('/webhooks/test', route({ access: 'signed', verify, headers: [SIGNATURE, 'x-test-topic'], body: { kind: 'raw', maxBytes: MAX_BYTES } }, handler, { lifecycle }));
    await new Promise<void>((resolve) =>
      app.listen('127.0.0.1', 0, (token) => {
        listen = token as uWS.us_listen_socket;
        port = uWS.us_socket_local_port(listen);
        resolve();
      }),
    );
  });
  afterAll(() => uWS.us_listen_socket_close(listen));

  function post(body: Buffer, headers: Record<string, string>, chunked = false): ReturnType<typeof rawRequest> {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    const head = `POST /webhooks/test HTTP/1.1\r\nHost: x\r\n${lines}`;
    const bytes = chunked
      ? Buffer.concat([Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
      : Buffer.concat([Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`), body]);
    return rawRequest(port, bytes, { waitMs: 5000, lingerMs: 300 });
  }

  test('When a delivery is signed over its bytes, then the handler gets those exact bytes (unparsed) and the shop the signature named', async () => {
    // Not JSON, not UTF-8: the pipeline hands over what came, and the signature is over exactly that.
    const body = Buffer.from([0x7b, 0xff, 0x00, 0xfe, 0x22, 0x7d]);
    const outcome = await post(body, { [SIGNATURE]: sign(body), 'x-test-topic': 'orders/create', 'content-type': 'application/json' });
    expect(outcome.response?.status).toBe(200);
    expect(received.at(-1)).toEqual({ shopId: 'shop-a', body, topic: 'orders/create' });
  });

  test('When the signature is missing or signs other bytes, then 401 and the handler never runs', async () => {
    const before = received.length;
    const body = Buffer.from('{"id":1}');
    for (const signature of [undefined, sign('{"id":2}')]) {
      const outcome = await post(body, signature === undefined ? {} : { [SIGNATURE]: signature });
      expect(outcome.response?.status).toBe(401);
      expect(JSON.parse(outcome.response!.body.toString())).toMatchObject({ code: 'unauthorized' });
    }
    expect(received.length).toBe(before);
  });

  test('When the body passes the route\'s cap, declared or counted, then 413 before any check, and the connection closes', async () => {
    const before = received.length;
    const body = Buffer.alloc(MAX_BYTES + 1, 0x20);
    for (const chunked of [false, true]) {
      const outcome = await post(body, { [SIGNATURE]: sign(body) }, chunked);
      expect(outcome.response?.status, chunked ? 'chunked' : 'content-length').toBe(413);
      expect(JSON.parse(outcome.response!.body.toString())).toMatchObject({ code: 'payload_too_large' });
      expect(outcome.closed).toBe(true);
    }
    const atCap = Buffer.alloc(MAX_BYTES, 0x20);
    expect((await post(atCap, { [SIGNATURE]: sign(atCap) })).response?.status).toBe(200);
    expect(received.length).toBe(before + 1);
  });

  test('When a browser origin sends it, then the answer carries no CORS header (a platform calls, never a page)', async () => {
    const body = Buffer.from('{}');
    const outcome = await post(body, { [SIGNATURE]: sign(body), origin: 'https://shop.example' });
    expect(outcome.response?.status).toBe(200);
    expect(header(outcome.response!, 'access-control-allow-origin')).toBeUndefined();
  });

  test('When a signed route is declared with CORS or a parsed body, then the server refuses to build it', () => {
    const handler = () => {};
    expect(() => route({ access: 'signed', verify, storefront: true, body: { kind: 'raw', maxBytes: 10 } }, handler, { lifecycle })).toThrow(/no CORS/);
    expect(() => route({ access: 'signed', verify, body: { kind: 'json', maxBytes: 10 } }, handler, { lifecycle })).toThrow(/raw/);
    expect(() => route({ access: 'signed', body: { kind: 'raw', maxBytes: 10 } }, handler, { lifecycle })).toThrow(/signature check/);
  });
});

describe('a signed route in the OpenAPI document', () => {
  const webhook = declare({
    method: 'post',
    path: '/webhooks/test',
    access: 'signed',
    signatureHeader: SIGNATURE,
    verify: () => verify,
    body: { kind: 'raw', contentType: 'application/json', maxBytes: (config) => config.maxEventBodyBytes },
    handler: () => (call: Call<ShopCaller, Buffer>) => call.json('{}'),
    doc: { summary: 'A test platform delivery', tag: 'operations', ok: { status: 200, description: 'Taken.', schema: 'Health' } },
  });

  test('When it is described, then its security is its signature header, its body raw at the configured cap, and it has no preflight', () => {
    const config = { ...loadConfig(testEnv(tempDataDir(), newShop())), maxEventBodyBytes: 2048 };
    const doc = openApiDocument([webhook], config);
    const path = doc.paths!['/webhooks/test']!;
    expect(path.options).toBeUndefined();
    const op = path.post as unknown as Record<string, unknown> & { security: unknown; requestBody: { content: Record<string, unknown> }; responses: Record<string, unknown> };
    expect(op.security).toEqual([{ [`signature:${SIGNATURE}`]: [] }]);
    expect(doc.components?.securitySchemes?.[`signature:${SIGNATURE}`]).toMatchObject({ type: 'apiKey', in: 'header', name: SIGNATURE });
    expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
    expect(op['x-pairwise-max-body-bytes']).toBe(2048);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '413', '503']);
  });
});
