// The supervisor's part of GET /metrics: a server that a scrape reached asks for the node's metrics;
// every server that has said it is ready reports its own, and the totals (observability/
// node-totals.ts: monotonic across restarts) go back to the one that asked. A server that does not
// report within REPORT_WAIT_MS (busy, going) counts with its last report.
import type { ChildProcess } from 'node:child_process';
import type { MetricFamily } from '../observability/metric-family.js';
import { NodeTotals } from '../observability/node-totals.js';
import type { MetricsReportMessage, MetricsRequestMessage, SupervisorMessage } from './messages.js';

const REPORT_WAIT_MS = 2_000;

/** A server slot as the relay sees it: its process, once ready (undefined: none, or not ready yet). */
export interface RelaySlot {
  readonly index: number;
  readonly ready: ChildProcess | undefined;
}

interface Gathering {
  reports: Map<number, MetricFamily[]>;
  waiting: Set<number>;
  finish: () => void;
}

export class MetricsRelay {
  readonly #totals = new NodeTotals();
  readonly #gatherings = new Map<number, Gathering>();
  #nextId = 0;

  constructor(readonly slots: () => readonly RelaySlot[]) {}

  /** `from` asks for the node's metrics: gathers every ready server's report and answers it. */
  request(from: RelaySlot, message: MetricsRequestMessage): void {
    const id = this.#nextId++;
    const asked = this.slots().filter((slot) => slot.ready?.connected);
    void new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REPORT_WAIT_MS);
      const gathering: Gathering = { reports: new Map(), waiting: new Set(asked.map((slot) => slot.index)), finish: () => (clearTimeout(timer), resolve()) };
      this.#gatherings.set(id, gathering);
      // A process that died since it was asked (its exit not yet seen here) fails the send: it is waited for no longer.
      const failed = (index: number) => gathering.waiting.delete(index) && gathering.waiting.size === 0 && gathering.finish();
      for (const slot of asked) send(slot.ready!, { type: 'metrics-collect', id, shopId: message.shopId }, () => failed(slot.index));
      if (asked.length === 0) gathering.finish();
    }).then(async () => {
      const gathering = this.#gatherings.get(id)!;
      this.#gatherings.delete(id);
      const families = await this.#totals.totals(gathering.reports);
      if (from.ready?.connected) send(from.ready, { type: 'metrics-answer', id: message.id, families });
    });
  }

  /** The server in `slot` reported for a gathering. */
  report(slot: RelaySlot, message: MetricsReportMessage): void {
    const gathering = this.#gatherings.get(message.id);
    if (gathering === undefined) {
      this.#totals.reported(slot.index, message.families); // late: its counts still stand for it
      return;
    }
    gathering.reports.set(slot.index, message.families);
    gathering.waiting.delete(slot.index);
    if (gathering.waiting.size === 0) gathering.finish();
  }

  /** The server in `slot` exited: its counts become the base its replacement adds to. */
  gone(slot: RelaySlot): void {
    for (const gathering of this.#gatherings.values()) {
      // A report it made for a gathering under way is its latest: the base takes it, the gathering no longer counts it.
      const report = gathering.reports.get(slot.index);
      if (report !== undefined) this.#totals.reported(slot.index, report);
      gathering.reports.delete(slot.index);
      if (gathering.waiting.delete(slot.index) && gathering.waiting.size === 0) gathering.finish();
    }
    this.#totals.gone(slot.index);
  }
}

/**
 * Sends without throwing and without an 'error' event on the child (a send to a process that just
 * died fails): `failed` is told instead. A throw here would leave a scrape's gathering unanswered,
 * and the server that asked would answer with its own counts alone.
 */
function send(child: ChildProcess, message: SupervisorMessage, failed: () => void = () => {}): void {
  try {
    child.send(message, (error) => {
      if (error) failed();
    });
  } catch {
    failed();
  }
}
