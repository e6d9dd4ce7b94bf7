// The demo store as a server runs it (PAIRWISE_DEMO): seeded on the first start (seed-demo-store.ts),
// and its storefront's pages, which sign in sample shoppers with customer tokens minted per page as a
// merchant's theme would.
import path from 'node:path';
import { mintCustomerToken } from '../api/customer-token.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import { createDemoStorefront, type DemoStorefront } from './demo-storefront.js';
import { seedDemoStore, type DemoKeys, type DemoSeeded, type SeedDeps } from './seed-demo-store.js';
import type { Log } from '../observability/log.js';

export interface DemoStoreOptions extends SeedDeps {
  engines: ShopEngines;
  /** The demo's files (catalog, events, collections). */
  demoDir: string;
  /** Where demo-keys.json keeps the demo shop's keys between starts. */
  dataDir: string;
  /** Epoch ms. */
  clock: () => number;
  log: Log;
}

export interface OpenDemoStore {
  keys: DemoKeys;
  /** Only on the start that created the store. */
  seeded?: DemoSeeded;
  storefront: DemoStorefront;
}

/** Customer tokens of the demo's pages last an hour (a page is rendered per visit). */
const TOKEN_SECONDS = 3600;

export async function openDemoStore(options: DemoStoreOptions): Promise<OpenDemoStore> {
  const { shops, engines, demoDir, clock, log } = options;
  const { keys, seeded } = await seedDemoStore(options, demoDir, path.join(options.dataDir, 'demo-keys.json'), clock(), log);
  const { shopId } = keys;
  const signingSecret = shops.getShop(shopId)?.signingSecrets?.[0] ?? (await shops.rotateSigningSecret(shopId));
  const storefront = createDemoStorefront({
    demoDir,
    publicKey: keys.publicKey,
    customerToken: (customerId) => mintCustomerToken(signingSecret, shopId, customerId, Math.floor(clock() / 1000) + TOKEN_SECONDS),
    catalog: () => engines.face(shopId).catalogReader,
  });
  return { keys, ...(seeded === undefined ? {} : { seeded }), storefront };
}
