// Shopper keys: a logged-in customer and a browser session are tracked separately, in one table.

export type ShopperKey = string;

/** Key spaces of the shopper table (LruSlots): customers, then sessions, by their keys' prefixes. */
export const CUSTOMER_SPACE = 0;
export const SESSION_SPACE = 1;
export const SHOPPER_PREFIXES: readonly string[] = ['c:', 's:'];

export function customerKey(customerId: string): ShopperKey {
  return SHOPPER_PREFIXES[CUSTOMER_SPACE] + customerId;
}

export function sessionKey(sessionId: string): ShopperKey {
  return SHOPPER_PREFIXES[SESSION_SPACE] + sessionId;
}
