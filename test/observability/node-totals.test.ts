// The node's totals from its processes' reports (src/observability/node-totals.ts), against a plain
// model of the node: processes that count, report when asked (or not), die and are replaced.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { counter, gauge, type MetricFamily } from '../../src/observability/metric-family.js';
import { NodeTotals } from '../../src/observability/node-totals.js';

/** A process's report: its requests (a node counter), its CPU (its own series), the shop's events applied (the models'), its memory (a gauge). */
function report(server: number, requests: number, applied: number): MetricFamily[] {
  return [
    counter('requests_total', 'requests', [[{ route: '/a' }, requests]]),
    counter('cpu_seconds_total', 'cpu', [[{ server: String(server) }, requests / 10]]),
    counter('events_applied_total', 'applied', [[{ shop: 's' }, applied]], 'max'),
    gauge('memory_bytes', 'memory', [[{ server: String(server) }, 100 + server]]),
  ];
}

const sample = (families: MetricFamily[], name: string, labels: Record<string, string> = {}) =>
  families.find((metric) => metric.name === name)?.values.find((value) => Object.entries(labels).every(([k, v]) => value.labels[k] === v))?.value;

type Step = { kind: 'count'; slot: number; requests: number } | { kind: 'die'; slot: number } | { kind: 'scrape'; answering: boolean[] } | { kind: 'apply'; events: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('count' as const), slot: fc.integer({ min: 0, max: 2 }), requests: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('die' as const), slot: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('scrape' as const), answering: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('apply' as const), events: fc.integer({ min: 1, max: 5 }) }),
);

describe('NodeTotals', () => {
  test('When processes count, report or stay silent, die and are replaced, then the totals never go backwards and, with everyone answering, are every count reported', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const totals = new NodeTotals();
        // Per slot: its current process's count; what dead ones had reported at their last report.
        const counts = [0, 0, 0];
        const reported = [0, 0, 0];
        let retired = 0;
        let log = 0; // events in the log: a process applies them all before it reports (it is caught up when ready)
        let last: { requests: number; cpu: number[]; applied: number } | undefined;
        for (const s of steps) {
          if (s.kind === 'count') counts[s.slot]! += s.requests;
          else if (s.kind === 'apply') log += s.events;
          else if (s.kind === 'die') {
            totals.gone(s.slot);
            retired += reported[s.slot]!;
            counts[s.slot] = 0;
            reported[s.slot] = 0;
          } else {
            const reports = new Map<number, MetricFamily[]>();
            s.answering.forEach((answers, slot) => {
              if (!answers) return;
              reports.set(slot, report(slot + 1, counts[slot]!, log));
              reported[slot] = counts[slot]!;
            });
            const node = await totals.totals(reports);
            const now = { requests: sample(node, 'requests_total') ?? 0, cpu: [1, 2, 3].map((server) => sample(node, 'cpu_seconds_total', { server: String(server) }) ?? 0), applied: sample(node, 'events_applied_total') ?? 0 };
            if (last !== undefined) {
              expect(now.requests).toBeGreaterThanOrEqual(last.requests);
              now.cpu.forEach((cpu, i) => expect(cpu).toBeGreaterThanOrEqual(last!.cpu[i]! - 1e-9));
              expect(now.applied).toBeGreaterThanOrEqual(last.applied);
            }
            if (s.answering.every(Boolean)) {
              expect(now.requests).toBe(retired + counts.reduce((a, b) => a + b, 0));
              expect(now.applied).toBe(log);
              // A process's gauges are its own: one sample per process that answered, none carried over.
              expect(node.find((metric) => metric.name === 'memory_bytes')?.values.map((v) => v.value)).toEqual([101, 102, 103]);
            }
            last = now;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
