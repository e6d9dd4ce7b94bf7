// Customer tokens: proof, minted by the merchant's server, that a storefront request may act as a
// logged-in customer. A public key is visible to anyone, so with it a bare customerId proves
// nothing (anyone could read or poison any shopper's history); a token signed with the shop's
// signing secret does. Mintable in any language without calling us:
//
//   payload = "ct1\n" + shopId + "\n" + customerId + "\n" + expiresAt   (expiresAt: Unix seconds)
//   token   = "ct1." + secretId + "." + expiresAt + "." + base64url(customerId) + "."
//             + base64url(HMAC-SHA256(key = the whole signing secret, payload))
//
// where secretId is the part of the secret between "cts_" and the next "_". A shop has at most
// two signing secrets: a rotation adds one and keeps the previous one, so tokens already handed
// out stay valid until the one after.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { signingSecretId } from '../config/secret-formats.js';

export { signingSecretId };

const PREFIX = 'ct1';
/** Longer tokens are refused unread: a 128-character customerId makes a token of ~260. */
export const MAX_TOKEN_LENGTH = 400;
/** Tokens valid for longer than this are refused: a leaked one expires within a month. */
export const MAX_TOKEN_LIFETIME_S = 31 * 86_400;
const MAX_CUSTOMER_ID = 128;

/** A shop's signing secret as verification needs it. */
export interface SigningKey {
  id: string;
  key: Buffer;
}

/** A new signing secret: "cts_" + an 8-character id + "_" + 256 random bits in base64url. */
export function generateSigningSecret(): string {
  const id = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');
  return `cts_${id}_${randomBytes(32).toString('base64url')}`;
}

export function signingKey(secret: string): SigningKey {
  const id = signingSecretId(secret);
  if (id === undefined) throw new Error('not a signing secret (cts_…)');
  return { id, key: Buffer.from(secret) };
}

function signature(key: Buffer, shopId: string, customerId: string, expiresAt: number): Buffer {
  return createHmac('sha256', key).update(`${PREFIX}\n${shopId}\n${customerId}\n${expiresAt}`).digest();
}

/** A token that proves `customerId` for the shop until `expiresAt` (Unix seconds). */
export function mintCustomerToken(secret: string, shopId: string, customerId: string, expiresAt: number): string {
  if (customerId.length === 0 || customerId.length > MAX_CUSTOMER_ID) throw new Error(`a customerId has 1-${MAX_CUSTOMER_ID} characters`);
  if (!Number.isSafeInteger(expiresAt)) throw new Error('expiresAt is whole Unix seconds');
  const { id, key } = signingKey(secret);
  const sig = signature(key, shopId, customerId, expiresAt).toString('base64url');
  return `${PREFIX}.${id}.${expiresAt}.${Buffer.from(customerId).toString('base64url')}.${sig}`;
}

/**
 * The customerId the token proves for this shop at `nowS` (Unix seconds), or undefined when it is
 * malformed, signed by none of the shop's keys, expired, or valid for longer than allowed.
 */
export function verifyCustomerToken(token: string, shopId: string, keys: readonly SigningKey[], nowS: number): string | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== PREFIX) return undefined;
  const [, id, expiresRaw, customerRaw, sigRaw] = parts as [string, string, string, string, string];
  if (!/^\d{1,12}$/.test(expiresRaw)) return undefined;
  const expiresAt = Number(expiresRaw);
  if (expiresAt <= nowS || expiresAt > nowS + MAX_TOKEN_LIFETIME_S) return undefined;
  const key = keys.find((k) => k.id === id);
  if (key === undefined) return undefined;
  const customerId = Buffer.from(customerRaw, 'base64url').toString('utf8');
  if (customerId.length === 0 || customerId.length > MAX_CUSTOMER_ID || Buffer.from(customerId).toString('base64url') !== customerRaw) return undefined;
  // Compared as text: base64url's last character has spare bits, so decoding would accept variants.
  const presented = Buffer.from(sigRaw);
  const expected = Buffer.from(signature(key.key, shopId, customerId, expiresAt).toString('base64url'));
  return presented.length === expected.length && timingSafeEqual(presented, expected) ? customerId : undefined;
}
