// The content warmer: lists go stale with the catalog and are computed in idle slices; lists left
// inexact by a catalog that changed while they were computed are computed again once the catalog
// has been quiet, so two processes that warmed at different moments end with the same answers.
import { expect, test } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { ContentWarmer, QUIET_MS, REFRESH_INTERVAL_MS } from '../../src/ingest/content-warmer.js';
import { ShopEngines } from '../../src/engine/shop-engines.js';
import { ask, product, T0 } from '../engine/fixtures.js';

const SHOP = 'warm-shop';
const catalog = Array.from({ length: 40 }, (_, i) =>
  product(String(i), { title: `${['red', 'blue', 'green'][i % 3]} ${['mug', 'plate'][i % 2]}`, tags: i % 5 === 0 ? ['sale'] : [], price: `${10 + (i % 4) * 20}.00` }),
);

function warmed(engines: ShopEngines, warmer: ContentWarmer): void {
  while (warmer.slice());
}

test('When lists were computed while the catalog was still coming, then after it has been quiet they are computed again and match a process that warmed once at the end', () => {
  let now = 0;
  const early = new ShopEngines(DEFAULT_ENGINE_CONFIG);
  const earlyWarmer = new ContentWarmer(early, () => now);
  const late = new ShopEngines(DEFAULT_ENGINE_CONFIG);
  const lateWarmer = new ContentWarmer(late, () => now);
  // The early process warms between the catalog's two parts; the last 3 products (7 %) share
  // nothing with the first 37, so lists computed before them are kept, with a smaller catalog's IDF.
  for (const p of catalog.slice(0, 37)) early.get(SHOP).upsertProduct(p);
  warmed(early, earlyWarmer);
  const rest = Array.from({ length: 3 }, (_, i) => product(`x${i}`, { title: `brass lamp ${i}`, price: '500.00' }));
  for (const p of [...catalog.slice(0, 37), ...rest]) late.get(SHOP).upsertProduct(p);
  for (const p of rest) early.get(SHOP).upsertProduct(p);
  warmed(early, earlyWarmer);
  warmed(late, lateWarmer);
  const similar = (engines: ShopEngines) => JSON.stringify(ask(engines.get(SHOP), { strategy: 'similar', productId: '1', limit: 10 }, T0).items);
  expect(similar(early)).not.toEqual(similar(late));
  expect(early.get(SHOP).content.exact).toBe(false);

  // Not yet quiet long enough: nothing changes.
  now += QUIET_MS - 1;
  warmed(early, earlyWarmer);
  expect(early.get(SHOP).content.exact).toBe(false);
  now += 1;
  warmed(early, earlyWarmer);
  expect(early.get(SHOP).content.exact).toBe(true);
  expect(similar(early)).toEqual(similar(late));

  // A catalog change after a refresh: the next refresh waits for the interval, then quiet.
  early.get(SHOP).upsertProduct(product('x9', { title: 'oak shelf', price: '700.00' }));
  warmed(early, earlyWarmer);
  now += QUIET_MS;
  warmed(early, earlyWarmer);
  expect(early.get(SHOP).content.exact).toBe(false);
  now += REFRESH_INTERVAL_MS;
  warmed(early, earlyWarmer);
  expect(early.get(SHOP).content.exact).toBe(true);
});
