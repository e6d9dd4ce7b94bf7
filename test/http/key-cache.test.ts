// The key cache in front of LMDB: known keys for ttlMs, unknown ones as misses for missTtlMs, each
// table bounded, and a flood of made-up keys never evicting a known one.
import { describe, expect, test } from 'vitest';
import type { Principal } from '../../src/app/principal.js';
import { cachedResolver } from '../../src/app/key-directory.js';

const SHOP: Principal = { shopId: 'shop-a', kind: 'public', allowedOrigins: [], customerKeys: [] };

function counted(keys: Map<string, Principal>) {
  const lookups = new Map<string, number>();
  const resolve = (key: string) => {
    lookups.set(key, (lookups.get(key) ?? 0) + 1);
    return keys.get(key);
  };
  return { resolve, lookups };
}

describe('key cache', () => {
  test('When unknown keys flood past the cap, then a known key is still answered from the cache', () => {
    const { resolve, lookups } = counted(new Map([['pk_good', SHOP]]));
    const cache = cachedResolver(resolve, 30_000, 5_000, 100, () => 0);
    expect(cache.resolve('pk_good')).toBe(SHOP);
    for (let i = 0; i < 1_000; i++) expect(cache.resolve(`pk_junk${i}`)).toBeUndefined();
    expect(cache.resolve('pk_good')).toBe(SHOP);
    expect(lookups.get('pk_good')).toBe(1);
  });

  test('When an unknown key repeats, then it is looked up once per miss ttl; clear forgets misses and hits', () => {
    let now = 0;
    const keys = new Map<string, Principal>();
    const { resolve, lookups } = counted(keys);
    const cache = cachedResolver(resolve, 30_000, 5_000, 100, () => now);
    cache.resolve('pk_new');
    now = 4_999;
    cache.resolve('pk_new');
    expect(lookups.get('pk_new')).toBe(1);
    now = 5_000;
    cache.resolve('pk_new');
    expect(lookups.get('pk_new')).toBe(2);
    keys.set('pk_new', SHOP);
    expect(cache.resolve('pk_new')).toBeUndefined(); // still a cached miss
    cache.clear();
    expect(cache.resolve('pk_new')).toBe(SHOP);
    keys.delete('pk_new');
    expect(cache.resolve('pk_new')).toBe(SHOP); // cached for ttlMs
    cache.clear();
    expect(cache.resolve('pk_new')).toBeUndefined();
  });
});
