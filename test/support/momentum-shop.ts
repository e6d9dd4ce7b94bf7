// A shop generated so that momentum misleads or helps personalized, for the tuner's tests (unit and
// through the server). Each of GROUPS groups has 4 "old" products sold long ago and 2 "new" ones
// sold in the last days. "Old" shoppers bought 3 old products of their group, months apart: their
// last purchase (what the tuner holds out) is an old product, which momentum (recent sales over
// orders ever: ~0 for old products) pushes below the new ones. "New" shoppers bought one old
// product, then the 2 new ones: their last purchase is new, which momentum helps find.

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
    for (let k = 0; k < 4; k++) ids.push(`g${g}-old${k}`);
    for (let k = 0; k < 2; k++) ids.push(`g${g}-new${k}`);
  }
  return ids;
}

/** Purchases, oldest first; `oldShoppers` and `newShoppers` per group; `now` the shop's clock. */
export function momentumShopPurchases(now: number, oldShoppers: number, newShoppers: number): GeneratedPurchase[] {
  const out: GeneratedPurchase[] = [];
  let order = 0;
  const buy = (customerId: string, productId: string, daysAgo: number) => out.push({ productId, customerId, orderId: `o${order++}`, timestamp: now - daysAgo * DAY });
  for (let g = 0; g < GROUPS; g++) {
    for (let s = 0; s < oldShoppers; s++) {
      // 3 of the 4 old products, a rotation per shopper so each pair is bought together alike
      for (let k = 0; k < 3; k++) buy(`old-${g}-${s}`, `g${g}-old${(s + k) % 4}`, 300 - 100 * k - (s % 7));
    }
    for (let s = 0; s < newShoppers; s++) {
      buy(`new-${g}-${s}`, `g${g}-old${s % 4}`, 120 - (s % 7));
      buy(`new-${g}-${s}`, `g${g}-new${s % 2}`, 6 - (s % 3));
      buy(`new-${g}-${s}`, `g${g}-new${(s + 1) % 2}`, 2 - (s % 2));
    }
  }
  return out.sort((a, b) => a.timestamp - b.timestamp);
}
