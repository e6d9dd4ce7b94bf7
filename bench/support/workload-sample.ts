// Ids a load generator can ask about, chosen by the server that knows its data: products and
// collections of the catalog and sessions that have a browsing history.

export interface WorkloadSample {
  productIds: string[];
  collectionIds: string[];
  /** Sessions with views, so recently-viewed answers from the shopper's own history. */
  sessionIds: string[];
}

/** What bench/service-server.ts announces on its ready line. */
export interface ServiceInfo {
  port: number;
  mode: string;
  dataDir: string;
  filesystem?: string;
  shopId: string;
  publicKey: string;
  secretKey: string;
  products: number;
  events: number;
  setupMs: number;
  sample: WorkloadSample;
}

/** Spreads `count` picks evenly over `items` (deterministic, keeps the order). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

export { prng } from './prng.js';
