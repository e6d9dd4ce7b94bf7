// PAIRWISE_SERVERS=2, the real compiled service: the storefront budget is the node's, not each
// server process's. Writes sent to both processes alike stop at the budget exactly: it is counted
// in the append's write transaction, which LMDB runs one at a time across processes.
import { describe, expect, test } from 'vitest';
import { twoServers } from '../support/child-server.js';
import { clientPerServer } from '../support/server-client.js';
import { newShop } from '../support/service.js';

const shop = newShop('shared-budget');
const service = twoServers(shop, { PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '30' });

describe('the storefront budget with PAIRWISE_SERVERS=2', () => {
  test('When both server processes take public-key events, then together they store the day’s budget and no more', async () => {
    const [a, b] = await clientPerServer(service.child.url, shop.publicKey);
    const statuses = { a: [] as number[], b: [] as number[] };
    for (let i = 0; i < 40; i++) {
      const [name, client] = i % 2 === 0 ? (['a', a] as const) : (['b', b] as const);
      const res = await client.call('POST', '/api/events', { type: 'view', productId: String(i), sessionId: 's', messageId: `m${i}` });
      statuses[name].push(res.status);
      if (res.status !== 200) expect(res.json.code).toBe('storefront_quota');
    }
    const accepted = [...statuses.a, ...statuses.b].filter((status) => status === 200).length;
    expect(accepted).toBe(30);
    expect(statuses.a.filter((status) => status === 429)).toHaveLength(5);
    expect(statuses.b.filter((status) => status === 429)).toHaveLength(5);
    const metrics = (await a.call('GET', '/metrics', undefined, shop.secretKey)).text;
    expect(metrics).toMatch(/^pairwise_storefront_events_today\{shop="shared-budget"\} 30$/m);
  });
});
