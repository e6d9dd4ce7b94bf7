// A shop generated so that momentum misleads or helps personalized, for the tuner's tests (unit and
// through the server). Each of GROUPS groups has 4 "steady" products, sold all year, and 2 "fads"
// sold only in the last days. Archive shoppers bought 3 steady products of their group a year ago
// (many orders ever, few recent: momentum, recent sales over orders ever, is low for steady
// products). Returning shoppers bought 2 steady products months ago and the third one in the last
// day: the shop's newest purchases, which the tuner holds out, are steady products that momentum
// pushes below the fads. Fad shoppers bought one steady product months ago and both fads last week.
// With no returning shoppers the newest purchases are the fads, which momentum helps find.

export const GROUPS = 8;
const DAY = 86_400_000;

export interface GeneratedPurchase {
  productId: string;
  customerId: string;
  orderId: string;
  timestamp: number;
}

export function momentumShopProducts(): string[] {
  const ids: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    for (let k = 0; k < 4; k++) ids.push(`g${g}-steady${k}`);
    for (let k = 0; k < 2; k++) ids.push(`g${g}-fad${k}`);
  }
  return ids;
}

export interface ShopShape {
  archive: number;
  returning: number;
  fad: number;
}

/** Purchases, oldest first, with the shoppers of `shape` in each group; `now` the shop's clock. */
export function momentumShopPurchases(now: number, shape: ShopShape): GeneratedPurchase[] {
  const out: GeneratedPurchase[] = [];
  let order = 0;
  const buy = (customerId: string, productId: string, daysAgo: number) => out.push({ productId, customerId, orderId: `o${order++}`, timestamp: Math.round(now - daysAgo * DAY) });
  for (let g = 0; g < GROUPS; g++) {
    // 3 of the 4 steady products, a rotation per shopper so each pair is bought together alike
    const steady = (s: number, k: number) => `g${g}-steady${(s + k) % 4}`;
    for (let s = 0; s < shape.archive; s++) for (let k = 0; k < 3; k++) buy(`archive-${g}-${s}`, steady(s, k), 360 - 10 * k - (s % 7));
    for (let s = 0; s < shape.returning; s++) {
      buy(`returning-${g}-${s}`, steady(s, 0), 200 - (s % 7));
      buy(`returning-${g}-${s}`, steady(s, 1), 100 - (s % 7));
      buy(`returning-${g}-${s}`, steady(s, 2), 0.2 + (s % 5) / 10);
    }
    for (let s = 0; s < shape.fad; s++) {
      buy(`fad-${g}-${s}`, steady(s, 0), 150 - (s % 7));
      buy(`fad-${g}-${s}`, `g${g}-fad${s % 2}`, 8 - (s % 3));
      buy(`fad-${g}-${s}`, `g${g}-fad${(s + 1) % 2}`, 5 - (s % 2));
    }
  }
  return out.sort((a, b) => a.timestamp - b.timestamp);
}
