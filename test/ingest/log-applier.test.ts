import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { CatalogUpdates } from '../../src/app/catalog-updates.js';
import { EventPipeline } from '../../src/ingest/event-pipeline.js';
import { LogApplier } from '../../src/ingest/log-applier.js';
import { ShopEngines } from '../../src/engine/shop-engines.js';
import { CatalogStore } from '../../src/store/catalog-store.js';
import { openDatabases, type Databases } from '../../src/store/database.js';
import { LmdbShopLog, type ShopLog } from '../../src/store/shop-log.js';
import { LogListeners } from '../../src/ingest/log-listeners.js';
import { product } from '../engine/fixtures.js';
import { tempDataDir } from '../support/service.js';

const NOW = Date.parse('2025-03-01T00:00:00Z');
const TTL = 7 * 86_400_000;
const opened: { dir: string; dbs: Databases }[] = [];

function open() {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  opened.push({ dir, dbs });
  return { dbs, log: new LmdbShopLog(dbs), engines: new ShopEngines(DEFAULT_ENGINE_CONFIG) };
}

afterEach(async () => {
  for (const { dir, dbs } of opened.splice(0)) {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Views of products `from`…`from + count - 1` by one session, a minute apart. */
function views(from: number, count: number): TrackedEvent[] {
  return Array.from({ length: count }, (_, k) => ({ type: 'view', productId: String(from + k), sessionId: 's1', timestamp: NOW + (from + k) * 60_000 }));
}

/** Appends events as a writer does (ids of its own), resolving with the first position. */
async function append(log: ShopLog, shopId: string, events: TrackedEvent[], tag: string): Promise<number> {
  return (await log.appendEvents(shopId, events.map((event, i) => ({ eventId: `evt_${tag}${i}`, event })), NOW, 0)).first;
}

/** Listeners that count each run of events announced. */
function counting(announced: number[]): LogListeners {
  const listeners = new LogListeners();
  listeners.onEvents((_shopId, events) => announced.push(events.length));
  return listeners;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LogApplier', () => {
  test('When another process stored more events than a slice before a batch, then they are applied a slice per turn, other shops are served meanwhile, and the batch is acknowledged after them', async () => {
    const { log, engines } = open();
    const cli = new EventPipeline(log, undefined, TTL, 'testlog1');
    await cli.ingest('shop-a', views(0, 35), NOW); // positions 1-35, not applied by anyone
    const pauses: ReturnType<typeof deferred>[] = [];
    const announced: number[] = [];
    const applier = new LogApplier(log, engines, counting(announced), {
      slice: 10,
      pause: () => {
        pauses.push(deferred());
        return pauses.at(-1)!.promise;
      },
    });
    const first = await append(log, 'shop-a', views(35, 5), 'z');
    expect(first).toBe(36);

    const applying = applier.applyBatch('shop-a', first, views(35, 5));
    await new Promise((resolve) => setImmediate(resolve));
    // Paused after the first slice: the shop is held, another shop is not.
    expect(engines.position('shop-a')).toBe(10);
    expect(engines.changesWait('shop-a')).toBeDefined();
    const other = await append(log, 'shop-b', views(0, 1), 'b');
    await applier.applyBatch('shop-b', other, views(0, 1));
    expect(engines.position('shop-b')).toBe(1);
    for (let i = 0; i < 3; i++) {
      pauses[i]!.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await applying;

    expect(pauses).toHaveLength(3);
    expect(announced).toEqual([10, 1, 10, 10, 5, 5]);
    expect(engines.position('shop-a')).toBe(40);
    expect(engines.changesWait('shop-a')).toBeUndefined();
    expect(engines.get('shop-a').eventCount).toBe(40);
  });

  test('When batches of the server wait behind a catch-up, then each event is applied once, in log order', async () => {
    const { log, engines } = open();
    await new EventPipeline(log, undefined, TTL, 'testlog1').ingest('shop-a', views(0, 25), NOW);
    const server = new EventPipeline(log, new LogApplier(log, engines, new LogListeners(), { slice: 10 }), TTL, 'testlog1');

    await Promise.all([server.ingest('shop-a', views(25, 5), NOW), server.ingest('shop-a', views(30, 5), NOW)]);
    await server.ingest('shop-a', views(35, 5), NOW);

    expect(engines.position('shop-a')).toBe(40);
    expect(engines.get('shop-a').eventCount).toBe(40);
    const reference = new ShopEngines(DEFAULT_ENGINE_CONFIG);
    for (const event of views(0, 40)) reference.get('shop-a').apply(event);
    expect(engines.get('shop-a').snapshot()).toEqual(reference.get('shop-a').snapshot());
  });

  test('When a catalog change and a catch-up both wait for a hold to end, then the catalog change waits for the catch-up too', async () => {
    const { dbs, log, engines } = open();
    await new EventPipeline(log, undefined, TTL, 'testlog1').ingest('shop-a', views(0, 25), NOW); // another process's events
    const pauses: ReturnType<typeof deferred>[] = [];
    const applier = new LogApplier(log, engines, new LogListeners(), {
      slice: 10,
      pause: () => {
        pauses.push(deferred());
        return pauses.at(-1)!.promise;
      },
    });
    const catalog = new CatalogUpdates(new CatalogStore(dbs, log), engines, applier);
    const snapshot = engines.hold('shop-a'); // a snapshot copying the models
    const first = await append(log, 'shop-a', views(25, 1), 'z');
    const applying = applier.applyBatch('shop-a', first, views(25, 1)); // waits first
    const upserting = catalog.upsert('shop-a', [product('p1')], NOW); // then the catalog change
    await new Promise((resolve) => setTimeout(resolve, 200)); // its commit is done: it waits too
    snapshot();
    await new Promise((resolve) => setImmediate(resolve));
    // The batch took the shop for its catch-up as the snapshot let go: the catalog change must not land in it.
    expect(engines.changesWait('shop-a')).toBeDefined();
    expect(engines.get('shop-a').catalog.get('p1')).toBeUndefined();
    while (engines.changesWait('shop-a') !== undefined) {
      pauses.at(-1)!.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([applying, upserting]);
    expect(engines.get('shop-a').catalog.get('p1')).toBeDefined();
    expect(engines.position('shop-a')).toBe(27); // 25 + the batch + the catalog change
  });
});
