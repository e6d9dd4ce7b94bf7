// Shopper keys: a logged-in customer and a browser session are tracked separately, in one table.

export type ShopperKey = string;

export function customerKey(customerId: string): ShopperKey {
  return 'c:' + customerId;
}

export function sessionKey(sessionId: string): ShopperKey {
  return 's:' + sessionId;
}

/** A shopper's keys, the customer first (its history is the richer one); empty ids are skipped. */
export function shopperKeys(customerId: string | undefined, sessionId: string | undefined): ShopperKey[] {
  const keys: ShopperKey[] = [];
  if (customerId) keys.push(customerKey(customerId));
  if (sessionId) keys.push(sessionKey(sessionId));
  return keys;
}
