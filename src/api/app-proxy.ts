// Shopify app proxy signatures: a storefront request proxied by Shopify carries the logged-in
// customer (`logged_in_customer_id`, empty when nobody is signed in), a `timestamp` and a
// `signature` over every other query parameter, made with the app's shared secret. A valid one
// proves the customer as a customer token does. Shopify's recipe: drop `signature`, write each
// parameter as "name=value" (repeated names: values joined by ","), sort those strings, join them
// with nothing, and compare hex HMAC-SHA256 of that with the shared secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signed URLs older (or newer) than this are refused: a leaked one stops working within the hour. */
export const MAX_APP_PROXY_AGE_S = 3600;

/** The logged-in customer a correctly signed, fresh app-proxy query names; undefined otherwise. */
export function verifyAppProxy(rawQuery: string, secret: string, nowS: number): string | undefined {
  if (!rawQuery.includes('signature=')) return undefined;
  const values = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    const list = values.get(name);
    if (list === undefined) values.set(name, [value]);
    else list.push(value);
  }
  const signature = values.get('signature');
  values.delete('signature');
  if (signature?.length !== 1 || !/^[0-9a-f]{64}$/.test(signature[0]!)) return undefined;
  const message = [...values].map(([name, list]) => `${name}=${list.join(',')}`).sort().join('');
  const expected = createHmac('sha256', secret).update(message).digest();
  if (!timingSafeEqual(Buffer.from(signature[0]!, 'hex'), expected)) return undefined;
  const timestamp = Number(values.get('timestamp')?.[0]);
  if (!Number.isFinite(timestamp) || Math.abs(nowS - timestamp) > MAX_APP_PROXY_AGE_S) return undefined;
  const customerId = values.get('logged_in_customer_id')?.[0];
  return customerId === undefined || customerId === '' || customerId.length > 128 ? undefined : customerId;
}
