// The demo store's recommendation traffic, generated (deterministically, from a fixed seed) so the
// dashboard shows a few weeks of real-looking numbers on first start: shoppers see the demo
// storefront's widgets (impressions with recIds minted as the server mints them), click some cards,
// add some to the cart and buy some (without a recId: attributed through the click, as on a real
// storefront). One placement, "product-similar", runs an A/B experiment for its last two weeks:
// shoppers are assigned as the server assigns them (a hash of the session), and variant B (the
// automatic choice, bought-together on a product page) is clicked a little more often.
import { assignVariant } from '../analytics/assignment.js';
import { recIdPrefix } from '../engine/attribution/rec-id.js';
import type { Strategy } from '../engine/strategy.js';
import { prng } from './prng.js';

const DAY_MS = 86_400_000;
/** Days of traffic, ending at the seeding time. */
export const TRAFFIC_DAYS = 28;
/** The experiment runs over the last EXPERIMENT_DAYS of them. */
export const EXPERIMENT_DAYS = 14;
const SEED = 20_240_611;
const CARDS_SHOWN = 4;

/** The demo experiment, as created through the Experiments use case. */
export const DEMO_EXPERIMENT = {
  name: 'Similar vs automatic on product pages',
  widgetId: 'product-similar',
  variants: [
    { strategy: 'similar', share: 50 },
    { strategy: 'auto', share: 50 },
  ],
} as const;

interface Placement {
  widgetId: string;
  strategy: Strategy;
  /** Probability that a shopper clicks one of the cards shown. */
  clickRate: number;
  /** Relative number of views. */
  weight: number;
}

const PLACEMENTS: readonly Placement[] = [
  { widgetId: 'home-trending', strategy: 'trending', clickRate: 0.16, weight: 5 },
  { widgetId: 'product-bought-together', strategy: 'bought-together', clickRate: 0.26, weight: 4 },
  { widgetId: 'product-similar', strategy: 'similar', clickRate: 0.2, weight: 4 },
  { widgetId: 'collection-popular', strategy: 'collection-popular', clickRate: 0.18, weight: 3 },
  { widgetId: 'product-recently-viewed', strategy: 'recently-viewed', clickRate: 0.3, weight: 1.5 },
  { widgetId: 'home-personalized', strategy: 'personalized', clickRate: 0.28, weight: 1 },
];
/** The widget ids the generated traffic names. */
export const TRAFFIC_WIDGETS: readonly string[] = PLACEMENTS.map((p) => p.widgetId);
const TOTAL_WEIGHT = PLACEMENTS.reduce((sum, p) => sum + p.weight, 0);
/** Variant B's click rate on the experiment's placement (A keeps the placement's own). */
const VARIANT_B_CLICK_RATE = 0.25;

export interface DemoTrafficProduct {
  id: string;
  price: number;
}

/** A wire event (POST /api/events shape) with an epoch-ms timestamp. */
export interface DemoTrafficEvent {
  type: 'impression' | 'click' | 'add_to_cart' | 'purchase';
  productId: string;
  sessionId: string;
  customerId?: string;
  widgetId?: string;
  recId?: string;
  metadata?: { orderId: string; price: number; quantity: number };
  timestamp: number;
}

/**
 * The traffic of TRAFFIC_DAYS days ending at `now`, in time order per session (a session's click
 * before its purchase). `experiment` is the demo experiment's number and normalized shares.
 */
export function demoTraffic(products: readonly DemoTrafficProduct[], now: number, experiment: { number: number; shares: readonly number[] }): DemoTrafficEvent[] {
  const random = prng(SEED);
  const int = (n: number) => Math.floor(random() * n);
  // Popularity: a few products are shown (and bought) much more than the rest.
  const order = products.map((p, i) => ({ p, key: random() + (i % 7 === 0 ? 0 : 0.5) })).sort((a, b) => a.key - b.key).map(({ p }) => p);
  const pick = () => order[Math.floor(order.length * random() ** 2.2)]!;
  const events: DemoTrafficEvent[] = [];
  const experimentFrom = now - EXPERIMENT_DAYS * DAY_MS;
  let serial = 0;
  let orders = 0;
  for (let d = TRAFFIC_DAYS - 1; d >= 0; d--) {
    const dayStart = now - (d + 1) * DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    // Busier at weekends, growing over the weeks.
    const sessions = Math.round((48 + (TRAFFIC_DAYS - d) * 0.9) * (weekday === 0 || weekday === 6 ? 1.3 : 1) * (0.85 + 0.3 * random()));
    for (let s = 0; s < sessions; s++) {
      const sessionId = `s_demo_${d}_${s}`;
      const customerId = random() < 0.25 ? `c_demo_${int(400)}` : undefined;
      const shopper = customerId === undefined ? { sessionId } : { sessionId, customerId };
      let t = dayStart + int(DAY_MS - 3_600_000);
      const views = 1 + int(3);
      for (let v = 0; v < views; v++, t += 60_000 + int(240_000)) {
        let roll = random() * TOTAL_WEIGHT;
        const placement = PLACEMENTS.find((p) => (roll -= p.weight) < 0) ?? PLACEMENTS[0]!;
        if (placement.strategy === 'personalized' && customerId === undefined) continue;
        let strategy = placement.strategy;
        let clickRate = placement.clickRate;
        let prefix = recIdPrefix(strategy);
        if (placement.widgetId === DEMO_EXPERIMENT.widgetId && t >= experimentFrom) {
          const variant = assignVariant(experiment.number, sessionId, experiment.shares);
          if (variant === 2) {
            strategy = 'bought-together';
            clickRate = VARIANT_B_CLICK_RATE;
          }
          prefix = recIdPrefix(strategy, experiment.number, variant);
        }
        const recId = prefix + 'demo' + (serial++).toString(36);
        const shown = Array.from({ length: CARDS_SHOWN }, pick);
        for (const product of shown) events.push({ type: 'impression', productId: product.id, ...shopper, widgetId: placement.widgetId, recId, timestamp: t });
        if (random() >= clickRate) continue;
        const clicked = shown[int(CARDS_SHOWN)]!;
        events.push({ type: 'click', productId: clicked.id, ...shopper, widgetId: placement.widgetId, recId, timestamp: t + 20_000 });
        const bought = random();
        if (bought < 0.32) events.push({ type: 'add_to_cart', productId: clicked.id, ...shopper, timestamp: t + 60_000 });
        if (bought < 0.13) {
          const quantity = 1 + int(random() < 0.3 ? 12 : 3);
          events.push({ type: 'purchase', productId: clicked.id, ...shopper, metadata: { orderId: `o_demo_${orders++}`, price: clicked.price, quantity }, timestamp: t + 300_000 });
        }
      }
    }
  }
  return events;
}
