// The README's Node WebSocket example (docs/examples/stream-client.mjs) runs as shipped, in Node 20
// with the `ws` package, against the real server.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const run = promisify(execFile);

describe('docs/examples/stream-client.mjs', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, ['1001', '1002', '1003'].map((id) => wireProduct(id)));
    await postEvents(t, [{ type: 'purchase', productId: '1003', sessionId: 'someone' }]);
  });
  afterAll(() => t.cleanup());

  test('When the example runs, then it prints the backfilled list, the ack, and the list starting with the product it viewed, and exits 0', async () => {
    const { stdout } = await run(process.execPath, ['docs/examples/stream-client.mjs'], {
      env: { ...process.env, PAIRWISE_URL: t.url, PAIRWISE_KEY: t.shop.publicKey },
      timeout: 20_000,
    });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^recommendations \(s1\): trending: Product 1003, /);
    expect(stdout).toMatch(/^ack 2: evt_/m);
    expect(lines.at(-2)).toMatch(/^recommendations \(s1\): recently-viewed: Product 1002, /);
  });
});
