// Metrics as plain data: a family is one metric name with its samples, in the JSON shape prom-client's
// registries produce (getMetricsAsJSON) and aggregate (AggregatorRegistry.aggregate), so what a server
// process counts can cross the supervisor's IPC channel, be summed over the node's processes and be
// written out as Prometheus text by prom-client.
import type { Aggregator } from 'prom-client';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export type Labels = Record<string, string | number>;

export interface MetricSample {
  value: number;
  labels: Labels;
  /** A histogram's series (`name_bucket`, `name_sum`, `name_count`); absent: the family's name. */
  metricName?: string;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  /**
   * How the node's processes' samples of one label set combine: 'sum' (counters, and series each
   * process labels with its own server), 'max' (the shop's models, which every process holds
   * alike, the furthest one ahead), 'first' (read from the storage every process shares).
   */
  aggregator: Aggregator;
  values: MetricSample[];
}

/** One family of `type`, its samples given as [labels, value] pairs. */
export function family(type: MetricType, name: string, help: string, samples: readonly (readonly [Labels, number])[], aggregator: Aggregator = 'sum'): MetricFamily {
  return { name, help, type, aggregator, values: samples.map(([labels, value]) => ({ labels, value })) };
}

export function gauge(name: string, help: string, samples: readonly (readonly [Labels, number])[], aggregator?: Aggregator): MetricFamily {
  return family('gauge', name, help, samples, aggregator);
}

export function counter(name: string, help: string, samples: readonly (readonly [Labels, number])[], aggregator?: Aggregator): MetricFamily {
  return family('counter', name, help, samples, aggregator);
}

/** The family with `labels` added to every sample (a server process's number, say). */
export function labelled(metric: MetricFamily, labels: Labels): MetricFamily {
  return { ...metric, values: metric.values.map((sample) => ({ ...sample, labels: { ...sample.labels, ...labels } })) };
}
