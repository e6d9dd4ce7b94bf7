// Recomputes of live subscriptions run a few per turn of the event loop: a change that makes many
// of them due does not hold every other request until all of them are done.
import { describe, expect, test } from 'vitest';
import type { RecommendationQuery } from '../../src/api/recommendation-query.js';
import type { Answers } from '../../src/app/answers.js';
import type { Principal } from '../../src/transport/auth.js';
import { BackpressurePolicy } from '../../src/ws/backpressure.js';
import { Connection } from '../../src/ws/connection.js';
import { REFRESHES_PER_TURN, SubscriptionRegistry } from '../../src/ws/subscriptions.js';
import { TurnQueue } from '../../src/ws/turn-queue.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('turn queue', () => {
  test('When more jobs are queued than run per turn, then each turn runs that many, in order, until none is left', async () => {
    const ran: number[] = [];
    const queue = new TurnQueue<number>(3, (job) => ran.push(job));
    for (let job = 0; job < 8; job++) queue.push(job);
    expect(ran).toEqual([]);
    await nextTurn();
    expect(ran).toEqual([0, 1, 2]);
    await nextTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    await nextTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(queue.pending).toBe(0);
    queue.push(8);
    await nextTurn();
    expect(ran.at(-1)).toBe(8);
  });

  test('When one change makes many subscriptions due, then the event loop turns between every few of their recomputes', async () => {
    let computed = 0;
    let seenByNextTurn: number | undefined;
    let watching = false;
    const answers = {
      answer: (_shop: string, query: RecommendationQuery) => {
        computed++;
        // The first recompute after the change asks what has run when the loop next turns.
        if (watching && seenByNextTurn === undefined) {
          watching = false;
          setImmediate(() => (seenByNextTurn = computed));
        }
        return { result: { strategy: 'trending', modelLevel: 1, items: [] }, head: Buffer.from(''), recPrefix: `${query.limit}` };
      },
      json: () => '{"products":[],"meta":{}}',
      engines: { face: () => ({ nextRuleEdge: () => Infinity }) },
    } as unknown as Answers;
    const registry = new SubscriptionRegistry({ answers, clock: () => 0, maxSubscriptions: 20, maxTopicsPerShop: 1000, publish: () => {} });
    const principal: Principal = { shopId: 'shop', kind: 'public', allowedOrigins: [], customerKeys: [] };
    const due = 3 * REFRESHES_PER_TURN + 2;
    for (let limit = 1; limit <= due; limit++) {
      registry.subscribe(new Connection(principal, 'pk', new BackpressurePolicy(1 << 20, 1000)), { limit, exclude: [] }, false, undefined);
    }
    computed = 0;
    watching = true;
    registry.changed('shop');
    for (let waited = 0; waited < 2000 && (computed < due || seenByNextTurn === undefined); waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(computed).toBe(due);
    // All at once, no other request would have been served until every one was done.
    expect(seenByNextTurn).toBeLessThan(due);
    expect(seenByNextTurn).toBeLessThanOrEqual(REFRESHES_PER_TURN);
    registry.close();
  });
});
