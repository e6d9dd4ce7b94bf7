// Operations: GET /healthz (no key) and GET /metrics (Prometheus text for the admin key's shop).
import { authenticate } from '../auth.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../route.js';

export function getHealth(): Handler {
  return (exchange) => exchange.json('{"status":"ok"}');
}

export function getMetrics(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = authenticate(exchange.request, deps.resolveKey, 'admin');
    const engine = deps.engines.get(shopId);
    const memory = process.memoryUsage();
    const shop = `shop="${shopId}"`;
    const lines = [
      '# HELP pairwise_events_applied_total Events applied to the shop\'s models since start (replay included).',
      '# TYPE pairwise_events_applied_total counter',
      `pairwise_events_applied_total{${shop}} ${engine.eventCount}`,
      '# HELP pairwise_products Products in the shop\'s catalog.',
      '# TYPE pairwise_products gauge',
      `pairwise_products{${shop}} ${engine.catalog.productCount}`,
      '# HELP pairwise_shoppers_tracked Shoppers (customers and sessions) with state in memory.',
      '# TYPE pairwise_shoppers_tracked gauge',
      `pairwise_shoppers_tracked{${shop}} ${engine.shoppers.size}`,
      '# HELP process_resident_memory_bytes Resident memory of the whole process.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory.rss}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${memory.heapUsed}`,
      '# HELP process_uptime_seconds Seconds since the process started.',
      '# TYPE process_uptime_seconds gauge',
      `process_uptime_seconds ${Math.round(process.uptime())}`,
      '',
    ];
    exchange.send(200, 'text/plain; version=0.0.4', lines.join('\n'));
  };
}
