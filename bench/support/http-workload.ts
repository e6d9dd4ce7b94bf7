// What bench/http.ts sends to the service: GET /api/recommendations requests of four kinds built
// from the server's workload sample (and carts, measured on their own beside a product's answers),
// and 100-event batch bodies for POST /api/events/batch.
import { prng, type WorkloadSample } from './workload-sample.js';

export const RECOMMENDATIONS = '/api/recommendations';
export const EVENTS_BATCH = '/api/events/batch';
export const EVENTS_PER_BATCH = 100;

export type GetKind = 'trending' | 'product' | 'collection' | 'recently-viewed' | 'cart';

/** The kinds of the mix. */
export const GET_KINDS: readonly GetKind[] = ['trending', 'product', 'collection', 'recently-viewed'];

/** The kinds measured one by one: the mix's, and a cart of 5 products (productIds) beside a product's. */
export const PER_KIND: readonly GetKind[] = [...GET_KINDS, 'cart'];

/** Products in a bench cart. */
export const CART_SIZE = 5;

/** Paths (with query) of one kind; `count` distinct contexts where the kind has any. */
export function recommendationPaths(kind: GetKind, sample: WorkloadSample, count = 8): string[] {
  const q = (query: string) => `${RECOMMENDATIONS}?${query}&limit=8`;
  const pick = (ids: readonly string[]) => Array.from({ length: count }, (_, i) => encodeURIComponent(ids[i % ids.length]!));
  switch (kind) {
    case 'trending':
      return Array.from({ length: count }, () => q('strategy=trending'));
    case 'product':
      return pick(sample.productIds).map((id) => q(`productId=${id}`));
    case 'cart':
      // Cart i: CART_SIZE consecutive sample products from i · CART_SIZE on, so no two carts are the same set.
      return Array.from({ length: count }, (_, i) => q(`productIds=${Array.from({ length: CART_SIZE }, (_, k) => encodeURIComponent(sample.productIds[(i * CART_SIZE + k) % sample.productIds.length]!)).join(',')}`));
    case 'collection':
      return pick(sample.collectionIds).map((id) => q(`collectionId=${id}`));
    case 'recently-viewed':
      return pick(sample.sessionIds).map((id) => q(`strategy=recently-viewed&sessionId=${id}`));
  }
}

/** The four kinds interleaved (t, p, c, r, t, p, c, r, …): an even mix whatever a run's length. */
export function mixedPaths(sample: WorkloadSample, perKind = 8): string[] {
  const byKind = GET_KINDS.map((kind) => recommendationPaths(kind, sample, perKind));
  return Array.from({ length: perKind }, (_, i) => byKind.map((paths) => paths[i]!)).flat();
}

/** autocannon's per-request id placeholder (option idReplacement): a fresh 33-char id per request. */
export const ID_PLACEHOLDER = '[<id>]';

/**
 * `count` different batch bodies of 100 events (views, clicks, add_to_carts over the sample's products;
 * sessions both known and new). With `messageIds`, each event carries `[<id>]-<n>`: unique per
 * request once autocannon replaces the placeholder, so every event takes the dedup-index path.
 */
export function batchBodies(sample: WorkloadSample, count: number, messageIds: boolean): string[] {
  const random = prng(7);
  const types = ['view', 'view', 'view', 'view', 'view', 'click', 'click', 'add_to_cart'];
  return Array.from({ length: count }, () => {
    const events = Array.from({ length: EVENTS_PER_BATCH }, (_, n) => {
      const session = random() < 0.5 ? sample.sessionIds[Math.floor(random() * sample.sessionIds.length)]! : `s_load_${Math.floor(random() * 50_000)}`;
      return {
        type: types[Math.floor(random() * types.length)],
        productId: sample.productIds[Math.floor(random() * sample.productIds.length)],
        sessionId: session,
        ...(messageIds ? { messageId: `${ID_PLACEHOLDER}-${n}` } : {}),
      };
    });
    return JSON.stringify({ events });
  });
}
