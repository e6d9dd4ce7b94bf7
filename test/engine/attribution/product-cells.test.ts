// The per-product table's bounds: named products, and the oldest day dropped when the cells are full.
import { describe, expect, test } from 'vitest';
import { DAY_MS, FIELDS, CLICKS } from '../../../src/engine/attribution/day-cells.js';
import { MAX_PRODUCT_CELLS, MAX_PRODUCTS, OTHER_PRODUCT, ProductCells } from '../../../src/engine/attribution/product-cells.js';

const DAY = Math.floor(Date.parse('2025-03-01T00:00:00Z') / DAY_MS);

describe('ProductCells bounds', () => {
  test('When more products are counted than the bound, then the first MAX_PRODUCTS are named and the rest count as (other)', () => {
    const products = new ProductCells();
    for (let i = 0; i < MAX_PRODUCTS + 10; i++) products.cells.add(DAY, products.index(`p${i}`), CLICKS, 1);
    expect(products.names.length).toBe(MAX_PRODUCTS + 1);
    expect(products.index('p0')).toBe(1);
    expect(products.index(`p${MAX_PRODUCTS + 5}`)).toBe(OTHER_PRODUCT);
    const row = products.cells.row(DAY, OTHER_PRODUCT);
    expect(products.cells.rows[row * FIELDS + CLICKS]).toBe(10);
  });

  test('When the cells are full, then a new day drops the oldest day instead of losing its products', () => {
    const products = new ProductCells();
    const perDay = MAX_PRODUCT_CELLS / 4;
    for (let d = 0; d < 4; d++) for (let p = 1; p <= perDay; p++) products.cells.add(DAY + d, p, CLICKS, 1);
    expect(products.cells.cellCount).toBe(MAX_PRODUCT_CELLS);
    products.cells.add(DAY + 4, 7, CLICKS, 1);
    const days = new Set<number>();
    products.cells.forEach(-Infinity, Infinity, (day) => days.add(day));
    expect([...days].sort()).toEqual([DAY + 1, DAY + 2, DAY + 3, DAY + 4]);
    expect(products.cells.rows[products.cells.row(DAY + 4, 7) * FIELDS + CLICKS]).toBe(1);
  });

  test('When the cells are full within one day, then its new products count in its (other) cell', () => {
    const products = new ProductCells();
    for (let p = 1; p <= MAX_PRODUCT_CELLS; p++) products.cells.add(DAY, p, CLICKS, 1);
    products.cells.add(DAY, MAX_PRODUCT_CELLS + 1, CLICKS, 2);
    expect(products.cells.rows[products.cells.row(DAY, OTHER_PRODUCT) * FIELDS + CLICKS]).toBe(2);
    expect(products.cells.cellCount).toBe(MAX_PRODUCT_CELLS + 1);
  });
});
