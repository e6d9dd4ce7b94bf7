// Request framing (RFC 9112 §6.3): a request whose body length is ambiguous — two Content-Length
// headers, which a proxy in front may read differently than uWS (request smuggling) — is refused with
// 400 bad_request and its connection closed, whatever the route. An answer to HEAD carries no body
// (RFC 9110 §9.3.2), so the next answer on the connection is read where it starts.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

interface RawAnswer {
  text: string;
  /** The server closed the connection (the client sent no FIN of its own). */
  closed: boolean;
}

/** Writes raw bytes on a fresh connection; resolves with all that came back once the server closes or after `waitMs`. */
function rawExchange(port: number, bytes: string, waitMs = 2_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.write(bytes);
  });
}

function problemOf(text: string): Record<string, unknown> {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

describe('request framing', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, [wireProduct('1')]);
  });
  afterAll(() => t.cleanup());

  const eventCount = () => t.service.engines.get(t.shop.shopId).eventCount;
  const EVENT = '{"type":"view","productId":"1","sessionId":"smuggle"}';

  test.each([
    ['different values', `${EVENT.length}`, '5'],
    ['the same value', `${EVENT.length}`, `${EVENT.length}`],
  ])('When POST /api/events carries two Content-Length headers (%s), then 400 bad_request, the connection is closed and nothing is stored', async (_name, first, second) => {
    const before = eventCount();

    const answer = await rawExchange(
      t.service.port,
      `POST /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.shop.publicKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${first}\r\nContent-Length: ${second}\r\n\r\n${EVENT}`,
    );

    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.text).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    expect(problemOf(answer.text)).toMatchObject({ status: 400, code: 'bad_request', title: 'Bad Request' });
    expect(answer.closed).toBe(true);
    expect(eventCount()).toBe(before);
  });

  test.each([
    ['GET /api/recommendations', `GET /api/recommendations HTTP/1.1\r\nAuthorization: Bearer __KEY__\r\n`],
    ['an unknown path', 'GET /nowhere HTTP/1.1\r\n'],
  ])('When %s carries two Content-Length headers, then 400 bad_request and the connection is closed', async (_name, head) => {
    const answer = await rawExchange(
      t.service.port,
      `${head.replace('__KEY__', t.shop.publicKey)}Host: x\r\nContent-Length: 2\r\nContent-Length: 0\r\n\r\n{}`,
    );

    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(answer.text)).toMatchObject({ code: 'bad_request' });
    expect(answer.closed).toBe(true);
  });

  test('When a request carries one Content-Length, then it is served and the connection stays open', async () => {
    const answer = await rawExchange(
      t.service.port,
      `POST /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.shop.publicKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${EVENT.length}\r\n\r\n${EVENT}`,
      500,
    );

    expect(answer.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.closed).toBe(false);
  });

  test.each([
    ['a route that answers GET only (405)', '/healthz', 405],
    ['an unknown path (404)', '/nowhere', 404],
  ])('When a HEAD request reaches %s, then its answer carries no body and the next request on the connection is answered in turn', async (_name, path, status) => {
    const answer = await rawExchange(t.service.port, `HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, 500);

    const [head, rest] = [answer.text.slice(0, answer.text.indexOf('\r\n\r\n') + 4), answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    // The length of the body a GET would get, but none of its bytes (RFC 9110 §9.3.2).
    expect(Number(/\r\ncontent-length: (\d+)\r\n/i.exec(head)?.[1])).toBeGreaterThan(0);
    expect(rest).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"status":"ok",[^\r\n]*\}$/);
  });

  test('When a HEAD request carries two Content-Length headers, then 400 without a body and the connection is closed', async () => {
    const answer = await rawExchange(t.service.port, 'HEAD /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 0\r\n\r\n{}');

    expect(answer.text).toMatch(/^HTTP\/1\.1 400 [^]*\r\n\r\n$/);
    expect(answer.closed).toBe(true);
  });
});
