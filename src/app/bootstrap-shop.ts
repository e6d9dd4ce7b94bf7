// The shop the environment names (PAIRWISE_SHOP and its keys and signing secret): created on start
// when missing, its keys and secret added when new, so a deployment needs no CLI step.
import type { BootstrapShop } from '../config.js';
import type { Log } from '../observability/log.js';
import type { ShopStore } from '../store/shop-store.js';

/** `now` (epoch ms, the service's clock) dates the changes it appends: their age counts for the log's retention. */
export async function bootstrapShop(boot: BootstrapShop | undefined, shops: ShopStore, log: Log, now: number): Promise<void> {
  if (boot === undefined) return;
  if (await shops.ensureShop(boot.shopId, {}, now)) log(`created shop "${boot.shopId}"`, { event: 'shop-created', shop: boot.shopId });
  if (boot.publicKey) await shops.addKey(boot.shopId, boot.publicKey, 'PAIRWISE_PUBLIC_KEY', now);
  if (boot.secretKey) await shops.addKey(boot.shopId, boot.secretKey, 'PAIRWISE_SECRET_KEY', now);
  if (boot.signingSecret) await shops.addSigningSecret(boot.shopId, boot.signingSecret, now);
}
