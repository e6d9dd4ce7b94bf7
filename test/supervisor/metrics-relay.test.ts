// The supervisor's metrics relay when a process dies between being asked and its exit being seen:
// the send to it fails, and the scrape is answered from the others at once (not after the relay's
// wait, and never left unanswered, which made the asking server answer with its own counts alone).
import type { ChildProcess } from 'node:child_process';
import { afterEach, expect, test, vi } from 'vitest';
import type { MetricFamily } from '../../src/observability/metric-family.js';
import type { SupervisorMessage } from '../../src/supervisor/messages.js';
import { MetricsRelay, type RelaySlot } from '../../src/supervisor/metrics-relay.js';

const requests = (value: number): MetricFamily[] => [{ name: 'pairwise_http_requests_total', help: 'requests', type: 'counter', aggregator: 'sum', values: [{ value, labels: { route: '/api/recommendations' } }] }];

/** A child process as the relay uses it: `send` records, or fails as a send to a dead process does. */
function child(sent: SupervisorMessage[], fails: 'throws' | 'calls back' | false): ChildProcess {
  return {
    connected: true,
    send(message: SupervisorMessage, callback?: (error: Error | null) => void) {
      if (fails === 'throws') throw new Error('channel closed');
      if (fails === 'calls back') process.nextTick(() => callback?.(new Error('write EPIPE')));
      else (sent.push(message), process.nextTick(() => callback?.(null)));
      return true;
    },
  } as unknown as ChildProcess;
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

afterEach(() => {
  vi.useRealTimers();
});

test.each(['throws', 'calls back'] as const)('When the send to a process that just died fails (%s), then the scrape is answered at once with what the others and its last report counted', async (fails) => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the relay's 2 s wait never runs out here
  const toAsker: SupervisorMessage[] = [];
  const toDead: SupervisorMessage[] = [];
  const asker: RelaySlot = { index: 0, ready: child(toAsker, false) };
  let dead: RelaySlot = { index: 1, ready: child(toDead, false) };
  const relay = new MetricsRelay(() => [asker, dead]);
  const answer = (collected: SupervisorMessage[], slot: RelaySlot, value: number) => {
    const collect = collected.find((m) => m.type === 'metrics-collect');
    if (collect?.type === 'metrics-collect') relay.report(slot, { type: 'metrics-report', id: collect.id, families: requests(value) });
    collected.length = 0;
  };

  // A first scrape while both live: the dead one's last report counts 5.
  relay.request(asker, { type: 'metrics-request', id: 1, shopId: 'shop' });
  answer(toAsker, asker, 7);
  answer(toDead, dead, 5);
  await turns(5);
  toAsker.length = 0;

  // It dies; its exit is not seen yet, so it is asked, and the send fails.
  dead = { index: 1, ready: child(toDead, fails) };
  relay.request(asker, { type: 'metrics-request', id: 2, shopId: 'shop' });
  answer(toAsker, asker, 7);
  await turns(5);
  const reply = toAsker.find((m) => m.type === 'metrics-answer');
  expect(reply).toMatchObject({ type: 'metrics-answer', id: 2 });
  const families = reply?.type === 'metrics-answer' ? reply.families : [];
  expect(families.find((f) => f.name === 'pairwise_http_requests_total')?.values[0]?.value).toBe(12);
});
