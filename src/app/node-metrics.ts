// GET /metrics for the whole node: every server process's report, put together (observability/
// node-totals.ts: counters summed and kept monotonic across restarts, each process's state under
// its server number, the shop's models as the furthest process has them), with what the shared
// storage holds, written as Prometheus text by prom-client. A server alone reports for itself; one
// of a supervisor's asks it for every process's report (supervisor/metrics-relay.ts).
import { AggregatorRegistry, Registry } from 'prom-client';
import { combine, ofShop } from '../observability/node-totals.js';
import type { MetricFamily } from '../observability/metric-family.js';
import { processReport, sharedFamilies, type MetricsSources } from './metrics-report.js';

/** The content type of the text prom-client writes (Prometheus' text format 0.0.4). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The node's families for a scrape by `shopId`'s key: every process's reports, put together. */
export type NodeGather = (shopId: string) => Promise<MetricFamily[]>;

export class NodeMetrics {
  #gather: NodeGather;
  readonly #linked: (gather: NodeGather) => void;

  /**
   * `supervised`: a supervisor's server, whose scrapes wait for the link to it (gatherWith): one
   * answered with this process's counts alone would make the node's counters go backwards.
   */
  constructor(
    readonly sources: MetricsSources,
    { supervised = false }: { supervised?: boolean } = {},
  ) {
    let linked!: (gather: NodeGather) => void;
    const link = new Promise<NodeGather>((resolve) => (linked = resolve));
    this.#linked = linked;
    this.#gather = supervised ? async (shopId) => (await link)(shopId) : (shopId) => this.report(shopId);
  }

  /** What this process reports for a scrape by `shopId`'s key. */
  report(shopId: string): Promise<MetricFamily[]> {
    return processReport(this.sources, shopId);
  }

  /** Gathers from every process of the node through `gather` from now on (a supervisor's server). */
  gatherWith(gather: NodeGather): void {
    this.#gather = gather;
    this.#linked(gather);
  }

  /** The node's metrics as the shop's admin key sees them: no other shop's samples. */
  async scrape(shopId: string): Promise<string> {
    const families = [...(await this.#gather(shopId)), ...sharedFamilies(this.sources, shopId)];
    const seen = families.map((metric) => ({ ...metric, values: metric.values.filter((sample) => ofShop(sample.labels, shopId)) }));
    return AggregatorRegistry.aggregate([seen as never]).metrics();
  }
}
