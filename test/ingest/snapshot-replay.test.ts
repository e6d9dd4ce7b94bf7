import { afterEach, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import type { Product } from '../../src/engine/product.js';
import { recommend } from '../../src/engine/recommend.js';
import { ShopEngine } from '../../src/engine/shop-engine.js';
import { STRATEGIES } from '../../src/engine/strategy.js';
import { CatalogUpdates } from '../../src/app/catalog-updates.js';
import { EventPipeline } from '../../src/ingest/event-pipeline.js';
import { replay } from '../../src/ingest/replay.js';
import { ShopEngines } from '../../src/engine/shop-engines.js';
import { SnapshotScheduler } from '../../src/ingest/snapshots.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { closeProcessViews, openProcessView } from '../support/process-view.js';

const NOW = Date.parse('2025-03-01T00:00:00Z');
const SHOP = 'snap-shop';
/** One process's view of the data dir (test/support/process-view.ts). */
const open = (dir?: string) => openProcessView(dir);

function product(i: number): Product {
  return {
    id: String(i), platform: 'shopify', title: `Item ${i % 7} thing`, handle: `item-${i}`, image: null, price: `${5 + (i % 5)}.00`,
    compareAtPrice: null, vendor: `V${i % 3}`, productType: null, tags: [`t${i % 4}`], collections: [`c${i % 3}`], available: true, updatedAt: NOW,
  };
}

/** A deterministic stream of mixed events over 40 products and 15 shoppers. */
function events(from: number, count: number): TrackedEvent[] {
  const types = ['view', 'click', 'add_to_cart', 'purchase', 'save', 'dismiss', 'impression'] as const;
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const shopper = i % 15;
    return {
      type: types[(i * 7) % types.length]!,
      productId: String((i * 13) % 40),
      sessionId: `s${shopper}-${Math.floor(i / 30)}`,
      ...(shopper % 2 === 0 ? { customerId: `c${shopper}` } : {}),
      metadata: { orderId: `o${Math.floor(i / 4)}` },
      timestamp: NOW - (400 - i) * 3_600_000,
    };
  });
}

function answers(engine: ShopEngine): unknown[] {
  const out: unknown[] = [];
  for (const strategy of STRATEGIES) {
    for (const ctx of [{ productId: '13' }, { collectionId: 'c1' }, { customerId: 'c2', sessionId: 's2-1' }, { sessionId: 's3-2' }]) {
      const result = recommend(engine, { strategy, limit: 12, exclude: [], ...ctx }, NOW);
      out.push([result.strategy, result.modelLevel, result.items.map((i) => [i.product.id, i.strategy, i.score])]);
    }
  }
  return out;
}

afterEach(closeProcessViews);

describe('snapshots', () => {
  test('When a snapshot is taken mid-stream, then a restart restores it, replays only the later events and answers exactly as before', async () => {
    const first = open();
    const pipeline = new EventPipeline(first.log, first.applier, 7 * 86_400_000, 'testlog1');
    await new CatalogUpdates(first.catalogStore, first.engines, first.applier).upsert(SHOP, Array.from({ length: 40 }, (_, i) => product(i)), NOW);
    for (let i = 0; i < 300; i += 50) await pipeline.ingest(SHOP, events(i, 50), NOW);
    const scheduler = new SnapshotScheduler(first.engines, first.snapshotStore, () => NOW, () => {});
    expect(await scheduler.takeAll()).toBe(1);
    expect(await scheduler.takeAll()).toBe(0); // nothing new since
    for (let i = 300; i < 380; i += 40) await pipeline.ingest(SHOP, events(i, 40), NOW);
    const before = answers(first.engines.get(SHOP));

    // A fresh engine registry on the same LMDB environment, as after a restart.
    const restarted = open(first.root);
    const stats = replay(restarted.catalogStore, restarted.log, restarted.snapshotStore, restarted.engines);
    expect(stats).toMatchObject({ snapshots: 1, products: 40, events: 80 });
    expect(restarted.engines.get(SHOP).eventCount).toBe(380);
    expect(answers(restarted.engines.get(SHOP))).toEqual(before);
  });

  test('When events arrive while a snapshot copies the models over many turns, then the snapshot holds the models as they were and each event is applied before it is acknowledged', async () => {
    const first = open();
    const pipeline = new EventPipeline(first.log, first.applier, 7 * 86_400_000, 'testlog1');
    const catalog = new CatalogUpdates(first.catalogStore, first.engines, first.applier);
    await catalog.upsert(SHOP, Array.from({ length: 40 }, (_, i) => product(i)), NOW);
    await pipeline.ingest(SHOP, events(0, 300), NOW);
    const engine = first.engines.get(SHOP);
    const before = answers(engine);
    // 64-byte slices, and the copy waits after its first slice until the writes below are durable.
    let writesDurable!: () => void;
    const durable = new Promise<void>((resolve) => (writesDurable = resolve));
    const heldStore = new SnapshotStore(first.dbs, { pause: () => durable });
    const taking = new SnapshotScheduler(first.engines, heldStore, () => NOW, () => {}, { sliceBytes: 64 }).takeAll();
    /** Events applied when each batch was acknowledged (at least the batch's own). */
    const acknowledged: number[] = [];
    const writes = [0, 1, 2, 3].map((k) =>
      pipeline.ingest(SHOP, events(300 + k * 15, 15), NOW).then(() => (acknowledged[k] = engine.eventCount)),
    );
    const renamed = catalog.upsert(SHOP, [{ ...product(3), title: 'Renamed while held' }], NOW);
    // Until all four commits are durable (the log holds them), then: still copying, nothing applied.
    while ((first.dbs.logHeads.get(SHOP) ?? 0) < 362) await new Promise((resolve) => setImmediate(resolve));
    expect(first.engines.changesWait(SHOP)).toBeDefined();
    expect(engine.eventCount).toBe(300);
    expect(acknowledged).toEqual([]);
    writesDurable();
    expect(await taking).toBe(1);
    await heldStore.close();
    await Promise.all([...writes, renamed]);
    acknowledged.forEach((applied, k) => expect(applied).toBeGreaterThanOrEqual(315 + 15 * k));
    expect(acknowledged).toHaveLength(4);
    expect(engine.catalog.get('3')?.title).toBe('Renamed while held');

    const restarted = open(first.root);
    const stats = replay(restarted.catalogStore, restarted.log, restarted.snapshotStore, restarted.engines);
    expect(stats).toMatchObject({ snapshots: 1, events: 60 });
    expect(answers(restarted.engines.get(SHOP))).toEqual(answers(engine));
    const snapshotOnly = ShopEngine.restore(DEFAULT_ENGINE_CONFIG, restarted.snapshotStore.get(SHOP)!.state)!;
    for (let i = 0; i < 40; i++) snapshotOnly.upsertProduct(product(i));
    expect(snapshotOnly.eventCount).toBe(300);
    expect(answers(snapshotOnly)).toEqual(before);
  });

  test('When events name products the catalog does not have yet, then the snapshot keeps them and after a restart the products count them when added', async () => {
    const first = open();
    const pipeline = new EventPipeline(first.log, first.applier, 7 * 86_400_000, 'testlog1');
    await new CatalogUpdates(first.catalogStore, first.engines, first.applier).upsert(SHOP, Array.from({ length: 30 }, (_, i) => product(i)), NOW);
    // Products 30-39 are not in the catalog yet: their events (a third of them) wait.
    for (let i = 0; i < 600; i += 100) await pipeline.ingest(SHOP, events(i, 100), NOW);
    const held = first.engines.get(SHOP).pending.size;
    expect(held).toBeGreaterThan(128); // its times (8 bytes each) become a binary part of the snapshot
    expect(await new SnapshotScheduler(first.engines, first.snapshotStore, () => NOW, () => {}).takeAll()).toBe(1);
    await pipeline.ingest(SHOP, events(600, 30), NOW);

    const restarted = open(first.root);
    expect(replay(restarted.catalogStore, restarted.log, restarted.snapshotStore, restarted.engines)).toMatchObject({ snapshots: 1, events: 30 });
    expect(restarted.engines.get(SHOP).pending.size).toBe(first.engines.get(SHOP).pending.size);
    const late = Array.from({ length: 10 }, (_, i) => product(30 + i));
    await new CatalogUpdates(first.catalogStore, first.engines, first.applier).upsert(SHOP, late, NOW);
    await new CatalogUpdates(restarted.catalogStore, restarted.engines, restarted.applier).upsert(SHOP, late, NOW);
    expect(restarted.engines.get(SHOP).pending.size).toBe(0);
    expect(answers(restarted.engines.get(SHOP))).toEqual(answers(first.engines.get(SHOP)));
    expect(recommend(restarted.engines.get(SHOP), { strategy: 'bought-together', productId: '33', limit: 12, exclude: [] }, NOW).modelLevel).toBe(2);
  });

  test('When the engine config changed since the snapshot, then the snapshot is ignored and the whole log replays', async () => {
    const first = open();
    const pipeline = new EventPipeline(first.log, first.applier, 7 * 86_400_000, 'testlog1');
    await pipeline.ingest(SHOP, events(0, 30), NOW);
    await new SnapshotScheduler(first.engines, first.snapshotStore, () => NOW, () => {}).takeAll();
    const state = first.snapshotStore.get(SHOP)!.state;
    expect(ShopEngine.restore({ ...DEFAULT_ENGINE_CONFIG, trendingHalfLifeMs: 1 }, state)).toBeUndefined();
    const engines = new ShopEngines({ ...DEFAULT_ENGINE_CONFIG, trendingHalfLifeMs: 3_600_000 });
    const stats = replay(first.catalogStore, first.log, first.snapshotStore, engines);
    expect(stats).toMatchObject({ snapshots: 0, events: 30 });
  });

  test('When an engine is snapshotted and restored in memory, then further events keep both answering alike', () => {
    const original = new ShopEngine(DEFAULT_ENGINE_CONFIG);
    const products = Array.from({ length: 40 }, (_, i) => product(i));
    for (const p of products) original.upsertProduct(p);
    for (const e of events(0, 200)) original.apply(e);
    const restored = ShopEngine.restore(DEFAULT_ENGINE_CONFIG, structuredClone(original.snapshot()))!;
    for (const p of products) restored.upsertProduct(p);
    for (const e of events(200, 100)) {
      original.apply(e);
      restored.apply(e);
    }
    expect(answers(restored)).toEqual(answers(original));
  });
});

describe('replay by log position', () => {
  const TTL = 7 * 86_400_000;
  const HOUR = 3_600_000;

  /** The models of one engine fed the catalog and then `events(0, count)` in order. */
  function reference(count: number): ShopEngine {
    const engine = new ShopEngine(DEFAULT_ENGINE_CONFIG);
    for (let i = 0; i < 40; i++) engine.upsertProduct(product(i));
    for (const event of events(0, count)) engine.apply(event);
    return engine;
  }

  async function serverWithCatalog() {
    const first = open();
    await new CatalogUpdates(first.catalogStore, first.engines, first.applier).upsert(SHOP, Array.from({ length: 40 }, (_, i) => product(i)), NOW);
    const server = new EventPipeline(first.log, first.applier, TTL, 'testlog1');
    // A CLI import beside the server: its own pipeline (store only) and ULID factory, its clock an
    // hour behind the server's, so every id it assigns sorts before the server's.
    const cli = new EventPipeline(first.log, undefined, TTL, 'testlog1');
    return { first, server, cli };
  }

  test('When another process stores events with earlier ids after a snapshot, then a restart applies every one of them', async () => {
    const { first, server, cli } = await serverWithCatalog();
    const served = await server.ingest(SHOP, events(0, 100), NOW);
    expect(await new SnapshotScheduler(first.engines, first.snapshotStore, () => NOW, () => {}).takeAll()).toBe(1);
    const imported = await cli.ingest(SHOP, events(100, 50), NOW - HOUR);
    expect(imported.results.every(({ eventId }) => eventId < served.results[0]!.eventId)).toBe(true);

    const restarted = open(first.root);
    const stats = replay(restarted.catalogStore, restarted.log, restarted.snapshotStore, restarted.engines);

    expect(stats).toMatchObject({ snapshots: 1, events: 50 });
    expect(restarted.engines.get(SHOP).eventCount).toBe(150);
    expect(restarted.engines.position(SHOP)).toBe(151);
    expect(answers(restarted.engines.get(SHOP))).toEqual(answers(reference(150)));
  });

  test("When another process stores events between the server's batches, then the server applies them before its next batch and its snapshot covers them", async () => {
    const { first, server, cli } = await serverWithCatalog();
    const applied: number[] = [];
    first.listeners.onEvents((_shopId, batch) => applied.push(batch.length));
    await server.ingest(SHOP, events(0, 60), NOW);
    await cli.ingest(SHOP, events(60, 30), NOW - HOUR);
    expect(first.engines.get(SHOP).eventCount).toBe(60); // stored, not applied yet

    await server.ingest(SHOP, events(90, 30), NOW);

    expect(first.engines.get(SHOP).eventCount).toBe(120);
    expect(first.engines.position(SHOP)).toBe(121);
    expect(applied).toEqual([60, 60]); // listeners hear of the imported events too
    expect(answers(first.engines.get(SHOP))).toEqual(answers(reference(120)));
    expect(await new SnapshotScheduler(first.engines, first.snapshotStore, () => NOW, () => {}).takeAll()).toBe(1);
    const restarted = open(first.root);
    expect(replay(restarted.catalogStore, restarted.log, restarted.snapshotStore, restarted.engines)).toMatchObject({ snapshots: 1, events: 0 });
    expect(answers(restarted.engines.get(SHOP))).toEqual(answers(reference(120)));
  });

  test('When concurrent batches commit together, then each gets its own consecutive positions and the models apply each event once', async () => {
    const { first, server } = await serverWithCatalog();
    await Promise.all([0, 1, 2, 3, 4].map((k) => server.ingest(SHOP, events(k * 20, 20), NOW)));

    expect(first.engines.get(SHOP).eventCount).toBe(100);
    expect(first.engines.position(SHOP)).toBe(101);
    // Position 1 is the catalog change.
    expect([...first.log.read(SHOP)].map(({ position }) => position)).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    // The pipeline's default sender is the merchant's (a secret key): the stored events say so.
    expect([...first.log.read(SHOP, 41, 43)].map(({ event }) => event)).toEqual(events(40, 2).map((event) => ({ ...event, sender: 'secret' })));
    expect(answers(first.engines.get(SHOP))).toEqual(answers(reference(100)));
  });
});
