import { describe, expect, test } from 'vitest';
import { customerKey, sessionKey, ShopperMap } from '../../src/engine/shopper-map.js';

describe('ShopperMap', () => {
  test('When a customer and a session share an id, then their keys differ', () => {
    expect(customerKey('42')).not.toBe(sessionKey('42'));
  });

  test('When a shopper is touched, then its value is created once and kept', () => {
    let created = 0;
    const map = new ShopperMap(10, () => ({ n: created++ }));
    const first = map.touch('s:1');
    expect(map.touch('s:1')).toBe(first);
    expect(map.get('s:1')).toBe(first);
    expect(map.get('s:2')).toBeUndefined();
    expect(created).toBe(1);
  });

  test('When the bound is passed, then the least recently written shopper is evicted', () => {
    const map = new ShopperMap(2, () => []);
    map.touch('a');
    map.touch('b');
    map.touch('a'); // a is now the most recently written
    map.get('b'); // reading does not count as a write
    map.touch('c');
    expect(map.size).toBe(2);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBeDefined();
    expect(map.get('c')).toBeDefined();
  });
});
