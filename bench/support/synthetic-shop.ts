// A store-sized shop for a benchmark server: the synthetic store's catalog and events applied in
// process to one shop of the running service (loading millions of events through HTTP would take
// longer than the measurement), and its available products from the most popular down. They are
// not in the shop's log: the shop's applied position stays where the log is, so what is written
// through the API afterwards (rules, events) is applied as usual.
import type { RunningService } from '../../src/service.js';
import { SyntheticEventStream } from './synthetic-events.js';
import { SyntheticStore } from './synthetic-store.js';

export interface FilledShop {
  store: SyntheticStore;
  /** The stream the events came from, to draw more of the same kind. */
  stream: SyntheticEventStream;
  seconds: number;
}

export function fillSyntheticShop(service: RunningService, shopId: string, products: number, events: number, log: (line: string) => void): FilledShop {
  const started = performance.now();
  const store = new SyntheticStore({ products, events, days: 90, seed: 1 });
  const engine = service.engines.get(shopId);
  for (const product of store.products) engine.upsertProduct(product);
  engine.precomputeContent(Infinity);
  const stream = new SyntheticEventStream(store);
  while (stream.produced < events) for (const event of stream.nextChunk(Math.min(10_000, events - stream.produced))) engine.apply(event);
  const seconds = (performance.now() - started) / 1000;
  log(`filled: ${products} products, ${events} events in ${seconds.toFixed(1)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  return { store, stream, seconds };
}

/** Ids of the store's available products, the most popular first. */
export function availableByPopularity(store: SyntheticStore): string[] {
  const byPopularity = store.products.map((_, i) => i).sort((a, b) => store.weight[b]! - store.weight[a]!);
  return byPopularity.filter((i) => store.products[i]!.available).map((i) => store.products[i]!.id);
}
