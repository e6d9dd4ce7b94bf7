// The one place that decides which customer a request (or an event) acts as. A secret key is the
// merchant's own server: its customerId is trusted. A public key is visible to anyone: its
// customerId counts only with proof — a customer token, or a Shopify app-proxy signature naming
// the logged-in customer — else the request is served from its session alone (it still succeeds).
// A token that is presented and does not prove its customer is refused (401 invalid_customer_token),
// never read as no token: the caller learns its token is no longer good.
import { verifyAppProxy } from '../api/app-proxy.js';
import { verifyCustomerToken } from '../api/customer-token.js';
import type { RecommendationQuery } from '../api/recommendation-query.js';
import { AppError } from '../errors.js';
import type { Principal } from './principal.js';

/** The proof a public-key request may carry beside its claimed customerId. */
export interface CustomerProof {
  customerToken?: string | undefined;
  /** The raw query string, which may be signed by a Shopify app proxy. */
  query?: string | undefined;
}

interface Verified {
  customerId: string;
  keyId: string;
  expiresAtS: number;
}

const INVALID_TOKEN = new AppError(
  'invalid_customer_token',
  "customerToken does not prove its customer (expired, tampered, or another shop's or customer's): send without it, as the session, or with a fresh token",
  [{ pointer: '/customerToken', detail: 'not a valid token for this customer' }],
  { 'www-authenticate': 'PairwiseCustomerToken' },
);

/** Verified tokens kept (cleared when full): a returning shopper's requests skip the HMAC. */
const MAX_VERIFIED = 10_000;

export class CustomerIdentity {
  readonly #verified = new Map<string, Verified>();

  /**
   * The customerId the caller may act as, or undefined (session only). With a public key that is
   * the proven customer, and only when the claimed customerId (if any) is that same customer.
   */
  customerId(principal: Principal, claimed: string | undefined, proof: CustomerProof, nowMs: number): string | undefined {
    if (principal.kind === 'secret') return claimed;
    const nowS = Math.floor(nowMs / 1000);
    if (proof.customerToken !== undefined) {
      const fromToken = this.#fromToken(principal, proof.customerToken, nowS);
      if (fromToken === undefined || (claimed !== undefined && claimed !== fromToken)) throw INVALID_TOKEN;
      return fromToken;
    }
    const proven = proof.query === undefined || principal.appProxySecret === undefined ? undefined : verifyAppProxy(proof.query, principal.appProxySecret, nowS);
    return proven !== undefined && (claimed === undefined || claimed === proven) ? proven : undefined;
  }

  #fromToken(principal: Principal, token: string, nowS: number): string | undefined {
    const memoKey = principal.shopId + '\u0000' + token;
    const hit = this.#verified.get(memoKey);
    // A hit still needs its key among the shop's current ones (a rotation may have dropped it).
    if (hit !== undefined && hit.expiresAtS > nowS && principal.customerKeys.some((k) => k.id === hit.keyId)) return hit.customerId;
    const customerId = verifyCustomerToken(token, principal.shopId, principal.customerKeys, nowS);
    if (customerId === undefined) return undefined;
    if (this.#verified.size >= MAX_VERIFIED) this.#verified.clear();
    const [, keyId, expires] = token.split('.', 3) as [string, string, string];
    this.#verified.set(memoKey, { customerId, keyId, expiresAtS: Number(expires) });
    return customerId;
  }
}

/** The query acting as `customerId` (undefined: as its session alone), its proof removed. */
export function queryAs(query: RecommendationQuery, customerId: string | undefined): RecommendationQuery {
  const { customerId: _claimed, customerToken: _proof, ...rest } = query;
  return customerId === undefined ? rest : { ...rest, customerId };
}
