// Seeds the demo shop on first start: its catalog, its event history (shifted to end just before
// now), a running A/B experiment with a few weeks of attributed recommendation traffic (the
// dashboard's numbers, demo-traffic.ts), and a key pair, kept in data/demo-keys.json so every
// start can print them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseCatalog } from '../api/product.js';
import { parseEvent, type TrackedEvent } from '../api/event.js';
import type { CatalogUpdates } from '../app/catalog-updates.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { Experiments } from '../app/experiments.js';
import type { Product } from '../engine/product.js';
import { experimentBody } from '../api/experiment.js';
import { DEMO_EXPERIMENT, demoTraffic, EXPERIMENT_DAYS, TRAFFIC_WIDGETS } from './demo-traffic.js';
import type { ShopStore } from '../store/shop-store.js';
import { readDemoEvents, readDemoProducts } from './demo-files.js';
import type { Log } from '../observability/log.js';

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
  experiments: Experiments;
  gidPlatform: string;
}

const EVENTS_PER_COMMIT = 2000;

/** Every widget id of the demo pages (src/demo/pages): the traffic's, and two it does not generate. */
const DEMO_WIDGETS = [...TRAFFIC_WIDGETS, 'home-recently-viewed', 'not-found-trending'];
/** The currency of the demo's prices (the Online Retail shop's, in the UK). */
const DEMO_CURRENCY = 'GBP';

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

async function seedCatalog(deps: SeedDeps, demoDir: string, now: number): Promise<readonly Product[]> {
  const parsed = parseCatalog({ products: readDemoProducts(demoDir) }, deps.gidPlatform, now);
  if (!parsed.ok) throw new Error(`data/demo/products.json is invalid: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  await deps.catalog.upsert(DEMO_SHOP, parsed.products, now);
  return parsed.products;
}

async function ingest(deps: SeedDeps, events: TrackedEvent[], now: number): Promise<void> {
  for (let i = 0; i < events.length; i += EVENTS_PER_COMMIT) {
    await deps.pipeline.ingest(DEMO_SHOP, events.slice(i, i + EVENTS_PER_COMMIT), now);
  }
}

/**
 * The demo experiment (created and started EXPERIMENT_DAYS ago through the use case, as a merchant
 * would) and the generated recommendation traffic; returns the number of events.
 */
async function seedTraffic(deps: SeedDeps, products: readonly Product[], now: number): Promise<number> {
  // The storefront's widgets, registered as a merchant would (PUT /api/shop/widgets): named for good.
  await deps.shops.setWidgets(DEMO_SHOP, DEMO_WIDGETS);
  const startedAt = now - EXPERIMENT_DAYS * 86_400_000;
  const created = await deps.experiments.create(DEMO_SHOP, experimentBody(DEMO_EXPERIMENT), startedAt - 3_600_000);
  const record = await deps.experiments.start(DEMO_SHOP, `exp_${created.number}`, startedAt);
  const priced = products.map((p) => ({ id: p.id, price: Number(p.price ?? 0) }));
  const events: TrackedEvent[] = [];
  for (const wire of demoTraffic(priced, now, { number: record.number, shares: record.variants.map((v) => v.share) })) {
    const parsed = parseEvent(wire, now);
    if (!parsed.ok) throw new Error(`generated demo traffic has an invalid event: ${JSON.stringify(parsed.errors[0])}`);
    events.push(parsed.event);
  }
  await ingest(deps, events, now);
  return events.length;
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
  await ingest(deps, events, now);
  return events.length;
}

/**
 * Creates and fills the demo shop once (saying what it seeded); afterwards only returns its keys.
 * `log` hears only that seeding begins: it takes a while, and the start-up summary tells the rest.
 */
export async function seedDemoStore(deps: SeedDeps, demoDir: string, keysFile: string, now: number, log: Log): Promise<DemoStore> {
  const started = performance.now();
  const created = await deps.shops.ensureShop(DEMO_SHOP, { demo: true }, now);
  // The demo's prices are the Online Retail shop's, in pounds (data/demo/README.md); a demo store
  // seeded before shops had a currency gets it at its next start.
  if (deps.shops.getShop(DEMO_SHOP)?.currency === undefined) await deps.shops.setCurrency(DEMO_SHOP, DEMO_CURRENCY);
  let seeded: DemoSeeded | undefined;
  if (created) {
    log('first start: seeding the demo store…', { event: 'demo-seeding', shop: DEMO_SHOP });
    const products = await seedCatalog(deps, demoDir, now);
    const events = (await seedEvents(deps, demoDir, now)) + (await seedTraffic(deps, products, now));
    seeded = { products: products.length, events, ms: Math.round(performance.now() - started) };
  }
  const keys = (created ? undefined : readKeys(keysFile)) ?? (await issueKeys(deps.shops, keysFile));
  return seeded === undefined ? { keys } : { keys, seeded };
}
