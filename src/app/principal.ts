// Who is calling: the shop its API key names, the kind of key, and what the shop's record says about
// its callers (origins, customer-token keys, app proxy). The transports find it (transport/auth.ts);
// the use cases act for it.
import type { SigningKey } from '../api/customer-token.js';

export interface Principal {
  shopId: string;
  kind: 'public' | 'secret';
  /** Origins the shop allows for browser calls; empty = any. */
  allowedOrigins: readonly string[];
  /** The shop's customer-token signing keys (at most two: the newest and the one before). */
  customerKeys: readonly SigningKey[];
  /** The shared secret of the shop's Shopify app proxy, when it has one. */
  appProxySecret?: string;
}

/** Looks a key up (the store keeps only its hash); undefined when unknown. */
export type KeyResolver = (key: string) => Principal | undefined;
