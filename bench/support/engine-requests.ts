// Realistic GET /api/recommendations query strings against a synthetic store, one workload per
// strategy and case: hot products (drawn by popularity, as product pages are visited) and cold
// ones (the less popular half), known shoppers (returning customers by visit frequency, sessions
// that just ended) and unknown ones, collections big and small.
import { prng } from './prng.js';
import type { SyntheticEventStream } from './synthetic-events.js';
import type { SyntheticStore } from './synthetic-store.js';

export interface Workload {
  label: string;
  /** Raw query strings as uWS hands them over (no leading '?'). */
  queries: string[];
}

type Params = Record<string, string | undefined>;

export function workloads(store: SyntheticStore, stream: SyntheticEventStream, count: number, seed: number): Workload[] {
  const random = prng(seed);
  const products = store.products;
  const byPopularity = store.byPopularity();
  const coldStart = Math.floor(byPopularity.length / 2);
  const recent = stream.recentSessions();
  let fresh = 0;

  const productId = (index: number) => {
    const id = products[index]!.id;
    return random() < 0.3 ? `gid://shopify/Product/${id}` : id;
  };
  const hot = () => productId(store.productSampler.pick(random()));
  /** A cart of `size` distinct products drawn by popularity (what shoppers put in carts), as a productIds list. */
  const cart = (size: number) => {
    const picked = new Set<number>();
    while (picked.size < size) picked.add(store.productSampler.pick(random()));
    return [...picked].map(productId).join(',');
  };
  const cold = () => productId(byPopularity[coldStart + Math.floor(random() * (byPopularity.length - coldStart))]!);
  const knownSession = () => recent[Math.floor(random() * recent.length)]!;
  const newSession = () => `sess_fresh_${fresh++}`;
  const knownCustomer = () => store.customerIds[store.customerSampler.pick(random())]!;
  /** A storefront widget's shopper context: a session always, a customer when logged in, a cart to exclude. */
  const storefront = (): Params => ({
    sessionId: random() < 0.5 ? knownSession() : newSession(),
    customerId: random() < 0.3 ? knownCustomer() : undefined,
    exclude: random() < 0.15 ? Array.from({ length: 1 + Math.floor(random() * 3) }, hot).join(',') : undefined,
  });
  const anyCollection = () => store.collections[Math.floor(random() * store.collections.length)]!.id;

  const build = (label: string, params: () => Params): Workload => ({
    label,
    queries: Array.from({ length: count }, () => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(params())) if (value !== undefined) search.set(key, value);
      return search.toString();
    }),
  });

  return [
    build('bought-together · hot product', () => ({ strategy: 'bought-together', productId: hot(), ...storefront() })),
    build('bought-together · cold product', () => ({ strategy: 'bought-together', productId: cold(), ...storefront() })),
    build('bought-together · cart of 5 hot products', () => ({ strategy: 'bought-together', productIds: cart(5), ...storefront() })),
    build('similar · hot product', () => ({ strategy: 'similar', productId: hot(), ...storefront() })),
    build('similar · cold product', () => ({ strategy: 'similar', productId: cold(), ...storefront() })),
    build('trending', () => ({ strategy: 'trending', ...storefront() })),
    build('personalized · returning customer', () => ({ strategy: 'personalized', customerId: knownCustomer(), sessionId: newSession() })),
    build('personalized · recent session', () => ({ strategy: 'personalized', sessionId: knownSession() })),
    build('personalized · unknown shopper', () => ({ strategy: 'personalized', sessionId: newSession() })),
    build(`collection-popular · sale (${store.bigCollection.size} products)`, () => ({ strategy: 'collection-popular', collectionId: store.bigCollection.id, ...storefront() })),
    build('collection-popular · any of 200', () => ({ strategy: 'collection-popular', collectionId: anyCollection(), ...storefront() })),
    build('recently-viewed · known shopper', () => (random() < 0.5 ? { strategy: 'recently-viewed', sessionId: knownSession() } : { strategy: 'recently-viewed', customerId: knownCustomer() })),
    build('recently-viewed · unknown shopper', () => ({ strategy: 'recently-viewed', sessionId: newSession() })),
    build('auto · storefront mix', () => autoMix(random, { hot, cold, storefront, anyCollection, unknown: () => store.unknownIds[0]! })),
  ];
}

/**
 * No strategy named, as a storefront asks: 45 % product pages (a fifth of them cold products,
 * a few deleted ones), 15 % collection pages, 25 % home pages of returning shoppers, 15 % of new ones.
 */
export function autoMix(
  random: () => number,
  pick: { hot: () => string; cold: () => string; storefront: () => Params; anyCollection: () => string; unknown: () => string },
): Params {
  const r = random();
  if (r < 0.45) {
    const product = random() < 0.02 ? pick.unknown() : random() < 0.2 ? pick.cold() : pick.hot();
    return { productId: product, ...pick.storefront() };
  }
  if (r < 0.6) return { collectionId: pick.anyCollection(), ...pick.storefront() };
  if (r < 0.85) {
    const shopper = pick.storefront();
    return { sessionId: shopper.sessionId, customerId: shopper.customerId };
  }
  return { sessionId: `sess_home_${Math.floor(random() * 1e9)}` };
}
