// Graceful shutdown in-process: stop() stops accepting, lets requests in flight finish, flushes LMDB.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Sends one raw HTTP/1.1 request on an open socket and resolves with the response head and body. */
function rawRequest(socket: Socket, request: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (head !== -1 && length !== null && text.length >= head + 4 + Number(length[1])) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.write(request);
  });
}

describe('graceful shutdown', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test('When stop() is called while a request is in flight, then that request still completes with 200 and its event is kept', async () => {
    // Arrange: an event whose body arrives in two parts, so the handler is waiting for the rest.
    const t = await startTestService();
    started.push(t);
    await putProducts(t, [wireProduct('1')]);
    const body = new TextEncoder().encode(JSON.stringify({ type: 'purchase', productId: '1', sessionId: 'in-flight' }));
    let sendRest!: () => void;
    const restSent = new Promise<void>((resolve) => (sendRest = resolve));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(body.subarray(0, 10));
        await restSent;
        controller.enqueue(body.subarray(10));
        controller.close();
      },
    });
    const pending = t.fetch('/api/events', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await until(() => t.service.http.lifecycle.inFlight === 1);

    // Act
    const stopped = t.service.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    sendRest();
    const res = await pending;
    await stopped;

    // Assert
    expect(res.status).toBe(200);
    const ack = await res.json();
    expect(ack.success).toBe(true);
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop });
    started.push(again);
    expect(again.service.engines.get(t.shop.shopId).eventCount).toBe(1);
  });

  test('When the service has stopped, then new connections are refused', async () => {
    const t = await startTestService();
    started.push(t);
    await t.stop();
    await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
  });

  test('When a request arrives on an open connection while shutting down, then 503 unavailable with Retry-After', async () => {
    // Arrange: an idle keep-alive connection, and a request in flight that keeps the server draining.
    const t = await startTestService();
    started.push(t);
    const socket = connect(t.service.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const health = await rawRequest(socket, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(health).toMatch(/^HTTP\/1\.1 200 /);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"type":"view",'));
        await held;
        controller.enqueue(new TextEncoder().encode('"productId":"1","sessionId":"s"}'));
        controller.close();
      },
    });
    const pending = t.fetch('/api/events', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await until(() => t.service.http.lifecycle.inFlight === 1);
    const stopped = t.service.stop();

    // Act
    const answer = await rawRequest(socket, `GET /api/recommendations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.shop.publicKey}\r\n\r\n`);

    // Assert
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nretry-after: 1\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 503, code: 'unavailable', title: 'Service Unavailable' });
    finish();
    expect((await pending).status).toBe(200);
    await stopped;
    socket.destroy();
  });
});
