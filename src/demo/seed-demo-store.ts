// Seeds the demo shop on first start: its catalog, its event history (shifted to end just before
// now) and a key pair, kept in data/demo-keys.json so every start can print them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseCatalog } from '../api/product.js';
import { parseEvent, type TrackedEvent } from '../api/event.js';
import type { CatalogUpdates } from '../ingest/catalog-updates.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { ShopStore } from '../store/shop-store.js';
import { readDemoEvents, readDemoProducts } from './demo-files.js';

export const DEMO_SHOP = 'demo';

export interface DemoKeys {
  shopId: string;
  publicKey: string;
  secretKey: string;
}

/** What a first start put into the demo store. */
export interface DemoSeeded {
  products: number;
  events: number;
  ms: number;
}

export interface DemoStore {
  keys: DemoKeys;
  /** Only on the start that created the store. */
  seeded?: DemoSeeded;
}

export interface SeedDeps {
  shops: ShopStore;
  catalog: CatalogUpdates;
  pipeline: EventPipeline;
  gidPlatform: string;
}

const EVENTS_PER_COMMIT = 2000;

function readKeys(file: string): DemoKeys | undefined {
  if (!existsSync(file)) return undefined;
  const keys = JSON.parse(readFileSync(file, 'utf8')) as DemoKeys;
  return keys.shopId === DEMO_SHOP ? keys : undefined;
}

async function issueKeys(shops: ShopStore, file: string): Promise<DemoKeys> {
  const keys: DemoKeys = {
    shopId: DEMO_SHOP,
    publicKey: await shops.createKey(DEMO_SHOP, 'public', 'demo storefront'),
    secretKey: await shops.createKey(DEMO_SHOP, 'secret', 'demo admin'),
  };
  writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  return keys;
}

async function seedCatalog(deps: SeedDeps, demoDir: string, now: number): Promise<number> {
  const parsed = parseCatalog({ products: readDemoProducts(demoDir) }, deps.gidPlatform, now);
  if (!parsed.ok) throw new Error(`data/demo/products.json is invalid: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  await deps.catalog.upsert(DEMO_SHOP, parsed.products);
  return parsed.products.length;
}

async function seedEvents(deps: SeedDeps, demoDir: string, now: number): Promise<number> {
  const events: TrackedEvent[] = [];
  for (const row of readDemoEvents(demoDir)) {
    const parsed = parseEvent(
      {
        type: row.type,
        productId: row.productId,
        sessionId: row.sessionId,
        customerId: row.customerId,
        metadata: row.orderId ? { orderId: row.orderId } : undefined,
        timestamp: now - row.offsetSeconds * 1000,
      },
      now,
    );
    if (!parsed.ok) throw new Error(`data/demo/events.csv has an invalid row: ${JSON.stringify(parsed.errors[0])}`);
    events.push(parsed.event);
  }
  for (let i = 0; i < events.length; i += EVENTS_PER_COMMIT) {
    await deps.pipeline.ingest(DEMO_SHOP, events.slice(i, i + EVENTS_PER_COMMIT), now);
  }
  return events.length;
}

/**
 * Creates and fills the demo shop once (saying what it seeded); afterwards only returns its keys.
 * `log` hears only that seeding begins: it takes a while, and the start-up summary tells the rest.
 */
export async function seedDemoStore(deps: SeedDeps, demoDir: string, keysFile: string, now: number, log: (line: string) => void): Promise<DemoStore> {
  const started = performance.now();
  const created = await deps.shops.ensureShop(DEMO_SHOP, { demo: true }, now);
  let seeded: DemoSeeded | undefined;
  if (created) {
    log('first start: seeding the demo store…');
    const products = await seedCatalog(deps, demoDir, now);
    const events = await seedEvents(deps, demoDir, now);
    seeded = { products, events, ms: Math.round(performance.now() - started) };
  }
  const keys = (created ? undefined : readKeys(keysFile)) ?? (await issueKeys(deps.shops, keysFile));
  return seeded === undefined ? { keys } : { keys, seeded };
}
