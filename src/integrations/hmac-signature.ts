// Platform webhook signatures of the common form: a header holding the base64 HMAC-SHA256 of the
// delivery's raw body, keyed with a shared secret (Shopify's X-Shopify-Hmac-Sha256, WooCommerce's
// X-WC-Webhook-Signature). Checked over the exact bytes received, before anything parses them, in
// constant time for each secret the shop accepts (the current one and, while a rotation's grace
// period lasts, the previous one).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A SHA-256 digest in base64: 44 characters, one '=' of padding. */
const BASE64_DIGEST = /^[A-Za-z0-9+/]{43}=$/;

/** The base64 HMAC-SHA256 of `body` with `secret`: what the platform sends for it. */
export function hmacSignature(body: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/**
 * Whether `header` signs `body` with one of `secrets`. Every secret is tried, whichever matches, so
 * the time taken says nothing about which one did or how much of it.
 */
export function verifyHmacSignature(body: Uint8Array, header: string | undefined, secrets: readonly string[]): boolean {
  if (header === undefined || !BASE64_DIGEST.test(header)) return false;
  const presented = Buffer.from(header, 'base64');
  let valid = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(body).digest();
    if (timingSafeEqual(expected, presented)) valid = true;
  }
  return valid;
}
