// The node's metrics from its server processes' reports, kept monotonic while processes come and go
// (the supervisor holds one). A process's counters start from zero when it is replaced: what the
// process it replaced had counted (its last report) is kept as a base and added to the totals, so a
// counter of the node never goes backwards. Counts a killed process made after its last report are
// lost, never counted twice. The shop's models' counts ('max' over the processes, as every process
// applies the same log) keep the gone process's last values until its replacement reports: that one
// has caught up with the log before it is asked, so it reports at least as much.
import { AggregatorRegistry } from 'prom-client';
import type { Labels, MetricFamily } from './metric-family.js';

/** Counters and histograms summed over the processes: they add up across restarts too. */
function summed(metric: MetricFamily): boolean {
  return metric.aggregator === 'sum' && (metric.type === 'counter' || metric.type === 'histogram');
}

/** Families a process's last report stands for while it does not answer: its counts. */
function carried(metric: MetricFamily): boolean {
  return summed(metric) || (metric.aggregator === 'max' && metric.type === 'counter');
}

/** The families of every list combined by name, each sample by its family's aggregator (prom-client's). */
export async function combine(lists: readonly (readonly MetricFamily[])[]): Promise<MetricFamily[]> {
  // prom-client's aggregation reads name, help, type, aggregator and values: the JSON its registries give.
  const combined = (await AggregatorRegistry.aggregate(lists as never).getMetricsAsJSON()) as unknown as MetricFamily[];
  return combined.map(({ name, help, type, aggregator, values }) => ({ name, help, type, aggregator, values: values.map(({ value, labels, metricName }) => (metricName === undefined ? { value, labels } : { value, labels, metricName })) }));
}

export class NodeTotals {
  /** What replaced processes had counted, every slot's together: lists combined into one after each death (never changed in place). */
  #retired: (readonly MetricFamily[])[] = [];
  #compaction = Promise.resolve();
  /** The carried families of each slot's process, as of its last report (a gone one's 'max' counters until its replacement reports). */
  readonly #last = new Map<number, MetricFamily[]>();

  /** The process in `slot` reported `families`. */
  reported(slot: number, families: readonly MetricFamily[]): void {
    this.#last.set(slot, families.filter(carried));
  }

  /** The process in `slot` is gone: what it counted becomes part of the base (at once: a scrape right after counts it). */
  gone(slot: number): void {
    const last = this.#last.get(slot);
    if (last === undefined) return;
    this.#last.set(slot, last.filter((metric) => !summed(metric)));
    this.#retired = [...this.#retired, last.filter(summed)];
    this.#compaction = this.#compaction.then(() => this.#compact());
  }

  /** Combines the base's lists into one, keeping any list added meanwhile (one compaction at a time: #compaction). */
  async #compact(): Promise<void> {
    const lists = this.#retired;
    if (lists.length < 2) return;
    const merged = await combine(lists);
    this.#retired = [merged, ...this.#retired.slice(lists.length)];
  }

  /**
   * The node's families from the reports of this scrape, by slot: a slot that did not answer (busy,
   * starting, just gone) counts with its last report's counters, and the base of the replaced ones
   * is added.
   */
  totals(reports: ReadonlyMap<number, readonly MetricFamily[]>): Promise<MetricFamily[]> {
    for (const [slot, families] of reports) this.reported(slot, families);
    // In slot order, so that each process's series come out in the same order whoever answers.
    const answered = [...reports].sort(([x], [y]) => x - y).map(([, families]) => families);
    const silent = [...this.#last].filter(([slot]) => !reports.has(slot)).map(([, families]) => families);
    return combine([...answered, ...silent, ...this.#retired]);
  }
}

/** Whether `labels` belong to `shopId`'s view: samples of another shop are left out of its answer. */
export function ofShop(labels: Labels, shopId: string): boolean {
  return labels.shop === undefined || labels.shop === shopId;
}
