// The Node.js process's own metrics (prom-client's defaults: CPU, resident memory, heap, event loop
// delay, garbage collection, handles, file descriptors), each labelled with the server process it
// describes so that the node's /metrics lists every process side by side.
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { MetricFamily } from './metric-family.js';

/**
 * One registry per OS process: collectDefaultMetrics starts watchers of the whole process (an event
 * loop delay histogram, a GC observer) that are never stopped, so a test process that starts many
 * services in turn shares one.
 */
let registry: Registry | undefined;

function processRegistry(): Registry {
  if (registry === undefined) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

/**
 * This process's default metrics as families, each sample labelled `server`: summed over the node,
 * every process keeps its own series (a replaced process's counters continue its slot's: NodeTotals).
 */
export async function processFamilies(server: string): Promise<MetricFamily[]> {
  const families = (await processRegistry().getMetricsAsJSON()) as unknown as MetricFamily[];
  return families.map((metric) => ({
    name: metric.name,
    help: metric.help,
    type: metric.type,
    aggregator: 'sum',
    values: metric.values.map(({ value, labels, metricName }) => ({ value, labels: { ...labels, server }, ...(metricName === undefined ? {} : { metricName }) })),
  }));
}
