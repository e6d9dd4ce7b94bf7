// Request bodies cut off by the client: a read whose client went away settles at once (uWS calls
// onAborted, and the response is never touched again), so requests in flight do not leak and a
// graceful shutdown does not wait for them.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Sends the head of a POST announcing 1000 bytes of body, then only 10 of them. */
async function halfUpload(t: TestService, path: string): Promise<Socket> {
  const socket = connect(t.service.port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.shop.publicKey}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"events":',
  );
  return socket;
}

describe('aborted uploads', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test.each(['/api/events', '/api/events/batch'])(
    'When the client of POST %s disconnects mid-body, then the request is no longer in flight',
    async (path) => {
      const t = await startTestService();
      started.push(t);
      const socket = await halfUpload(t, path);
      await until(() => t.service.http.lifecycle.inFlight === 1);

      socket.destroy();

      await until(() => t.service.http.lifecycle.inFlight === 0, 3_000);
      const health = await fetch(`${t.url}/healthz`);
      expect(health.status).toBe(200);
    },
  );

  test('When a half-sent upload was abandoned, then graceful shutdown does not wait for its drain timeout', async () => {
    // Arrange: a drain timeout far longer than a shutdown takes, so waiting for it is unmistakable.
    const t = await startTestService({ env: { PAIRWISE_SHUTDOWN_TIMEOUT_SECONDS: '20' } });
    started.push(t);
    const socket = await halfUpload(t, '/api/events');
    await until(() => t.service.http.lifecycle.inFlight === 1);
    socket.destroy();

    // Act
    const began = performance.now();
    const outcome = await Promise.race([
      t.service.stop().then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still draining'), 8_000)),
    ]);

    // Assert
    expect(outcome).toBe('stopped');
    expect(performance.now() - began).toBeLessThan(8_000);
  });
});
