// An EASE fit published to the log by one process is installed by every process that applies the
// log, at the fit's position, whatever dense ids each gave the products.
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { toPortable } from '../../src/engine/ease/portable-fit.js';
import { CatalogUpdates } from '../../src/app/catalog-updates.js';
import { refitEase } from '../../src/ingest/ease-refit.js';
import { EventPipeline } from '../../src/ingest/event-pipeline.js';
import { LogApplier } from '../../src/ingest/log-applier.js';
import { LogListeners } from '../../src/ingest/log-listeners.js';
import { replay } from '../../src/ingest/replay.js';
import { ShopEngines } from '../../src/engine/shop-engines.js';
import { CatalogStore } from '../../src/store/catalog-store.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import type { EaseFit } from '../../src/engine/ease/ease-model.js';
import { ask, idsOf, product, T0, DAY } from '../engine/fixtures.js';
import { tempDatabases } from '../support/temp-databases.js';

const { dbs, cleanup } = tempDatabases();
const SHOP = 'fit-shop';

afterAll(() => cleanup());

function process_() {
  const log = new LmdbShopLog(dbs);
  const engines = new ShopEngines(DEFAULT_ENGINE_CONFIG);
  const applier = new LogApplier(log, engines, new LogListeners());
  return { log, engines, applier, pipeline: new EventPipeline(log, applier, 7 * DAY, 'testlog1'), catalog: new CatalogUpdates(new CatalogStore(dbs, log), engines, applier) };
}

describe('EASE fits through the log', () => {
  test('When one process fits and publishes, then another process applying the log installs the same rows and answers alike, and so does a replay', async () => {
    const a = process_();
    const b = process_();
    // b knows products in another order, so its dense ids differ from a's.
    b.engines.get(SHOP).upsertProduct(product("y"));
    await a.catalog.upsert(SHOP, ['a', 'b', 'x', 'y'].map((id) => product(id)), T0);
    const events = [];
    for (let i = 0; i < 5; i++) {
      for (const [c, p] of [[`xy${i}`, 'x'], [`xy${i}`, 'y'], [`ab${i}`, 'a'], [`ab${i}`, 'b']] as const) events.push({ type: 'purchase' as const, productId: p, sessionId: `s-${c}`, customerId: c, timestamp: T0 - DAY });
    }
    events.push({ type: 'purchase' as const, productId: 'a', sessionId: 's-me', customerId: 'me', timestamp: T0 - DAY });
    await a.pipeline.ingest(SHOP, events, T0);

    let fit: EaseFit | undefined;
    await refitEase(a.engines.get(SHOP), { maxItems: 100, neighbors: 8, lambda: 1 }, undefined, (f) => (fit = f));
    expect(a.engines.get(SHOP).ease.ready).toBe(false); // handed over, not installed
    const fittedThrough = a.engines.position(SHOP);
    const position = await a.log.publishEaseFit(SHOP, toPortable(a.engines.get(SHOP).catalog, fit!), fittedThrough, T0);
    await a.applier.applyThrough(SHOP, position);
    await b.applier.applyThrough(SHOP, position);

    const personal = (engines: ShopEngines) => idsOf(ask(engines.get(SHOP), { strategy: 'personalized', customerId: 'me', limit: 8 }, T0));
    expect(a.engines.get(SHOP).ease.ready).toBe(true);
    expect(b.engines.get(SHOP).ease.ready).toBe(true);
    expect(b.engines.get(SHOP).catalog.denseOf('y')).not.toBe(a.engines.get(SHOP).catalog.denseOf('y'));
    expect(personal(b.engines)).toEqual(personal(a.engines));
    expect(personal(a.engines)[0]).toBe('b');

    const restarted = new ShopEngines(DEFAULT_ENGINE_CONFIG);
    const snapshots = new SnapshotStore(dbs);
    replay(new CatalogStore(dbs), new LmdbShopLog(dbs), snapshots, restarted);
    await snapshots.close();
    expect(personal(restarted)).toEqual(personal(a.engines));
  });

  test('When more fits are published than are kept, then the oldest artifacts go and the newest stay', async () => {
    const log = new LmdbShopLog(dbs);
    const artifact = { items: ['a'], k: 1, sizes: new Uint8Array([1]), ids: new Uint8Array(4), weights: new Uint8Array(4) };
    const positions = [];
    for (let i = 0; i < 5; i++) positions.push(await log.publishEaseFit('kept-shop', artifact, i, T0));
    expect(positions.map((p) => log.easeFit('kept-shop', p) !== undefined)).toEqual([false, false, true, true, true]);
  });
});
