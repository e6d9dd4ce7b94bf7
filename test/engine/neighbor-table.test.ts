import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { pairSignificance } from '../../src/engine/co-occurrence.js';
import { kthLargest, NeighborTable, type NeighborTableData } from '../../src/engine/neighbor-table.js';
import { handOver } from '../../src/engine/typed-arrays.js';
import { ExactPairCounts, ReferencePairCounts } from '../reference/pair-counts.js';

type Add = [row: number, id: number, weight: number];

/** The row's [id, weight] entries in stored order. */
function entries(table: NeighborTable, row: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < table.size(row); k++) out.push([table.ids[table.start(row) + k]!, table.weights[table.weightStart(row) + k]!]);
  return out;
}

/** The row's [id, weight, total] entries in stored order. */
function entriesWithTotals(table: NeighborTable, row: number): [number, number, number][] {
  return entries(table, row).map(([id, weight], k) => [id, weight, table.weights[table.totalStart(row) + k]!]);
}

/** What the basket table prunes by: a pair's weight discounted by how unsure its total leaves it. */
const byStrength = (weight: number, total: number) => weight * pairSignificance(total);

const adds = (rows: number, ids: number, weight: fc.Arbitrary<number>) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: rows - 1 }), fc.integer({ min: 0, max: ids - 1 }), weight), { maxLength: 600, size: 'medium' });
const weights = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 9 }), fc.double({ min: 0.01, max: 5, noNaN: true }));

/** An export in the layout snapshots had before `rows`: per row its size class + 1, its entries and its block offset, in three lists. */
function legacyRows(data: NeighborTableData): NeighborTableData {
  const words = new Int32Array(data.rows!.slice().buffer);
  const rows = words.length / 2;
  const rowClass = new Uint8Array(rows);
  const rowFill = new Uint8Array(rows);
  const rowStart = new Int32Array(rows);
  for (let row = 0; row < rows; row++) {
    rowStart[row] = words[2 * row]!;
    rowClass[row] = words[2 * row + 1]! & 0xff;
    rowFill[row] = words[2 * row + 1]! >>> 8;
  }
  return { kept: data.kept, withTotals: data.withTotals, rowClass, rowFill, rowStart: new Uint8Array(rowStart.buffer), pool: data.pool, free: data.free };
}

describe('NeighborTable', () => {
  test('When pairs are added, pruned or not, then every row equals the Map reference entry for entry, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), adds(4, 50, weights), (kept, stream) => {
        // Rows move through blocks of 4, 8, 16 … 2K entries on the way: every size is exercised.
        const table = new NeighborTable(kept);
        const reference = new ReferencePairCounts(kept);
        for (const [row, id, weight] of stream) {
          table.add(row, id, weight);
          reference.add(row, id, weight);
        }
        for (let row = 0; row < 4; row++) {
          expect(entries(table, row)).toEqual(reference.entries(row));
          for (let id = 0; id < 50; id++) expect(table.weight(row, id)).toBe(reference.weight(row, id));
        }
      }),
    );
  });

  test('When pairs are added with totals apart from their weights, then every row equals the reference in order, totals included, pruned by strength', () => {
    // A decaying owner adds a grown weight and the plain count: two different sums per entry.
    const withTotal = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 39 }), weights, fc.integer({ min: 1, max: 3 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(withTotal, { maxLength: 600, size: 'medium' }), (kept, stream) => {
        const table = new NeighborTable(kept, true, byStrength);
        const reference = new ReferencePairCounts(kept, byStrength);
        for (const [row, id, weight, total] of stream) {
          table.add(row, id, weight, total);
          reference.add(row, id, weight, total);
        }
        for (let row = 0; row < 4; row++) {
          expect(entriesWithTotals(table, row)).toEqual(reference.entriesWithTotals(row));
          for (let id = 0; id < 40; id++) expect([table.weight(row, id), table.total(row, id)]).toEqual([reference.weight(row, id), reference.total(row, id)]);
        }
      }),
    );
  });

  test('When a table keeps no totals, then its totals read as its weights', () => {
    const table = new NeighborTable(2);
    table.add(0, 5, 2, 7);
    table.add(0, 6, 1);
    expect(entriesWithTotals(table, 0)).toEqual([
      [5, 2, 2],
      [6, 1, 1],
    ]);
    expect(table.total(0, 5)).toBe(2);
  });

  test('When a full row prunes by strength, then a pair seen often but decayed outlasts one-off pairs of higher weight', () => {
    const table = new NeighborTable(1, true, byStrength);
    table.add(0, 10, 0.5, 6); // six baskets long ago: 0.5 × (6/9)² = 0.22
    table.add(0, 11, 1, 1); // one basket today: 1 × (1/4)² = 0.0625
    table.add(0, 12, 1, 1);
    expect(entriesWithTotals(table, 0)).toEqual([[10, 0.5, 6]]);
    // By weight alone the old pair would have gone first.
    const byWeight = new NeighborTable(1, true);
    byWeight.add(0, 10, 0.5, 6);
    byWeight.add(0, 11, 1, 1);
    byWeight.add(0, 12, 1, 1);
    expect(entriesWithTotals(byWeight, 0)).toEqual([[11, 1, 1]]);
  });

  test('When rows are pruned, then no kept weight exceeds the true weight and a row never holds more than 2K', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), adds(3, 40, fc.integer({ min: 1, max: 4 })), (kept, stream) => {
        const table = new NeighborTable(kept);
        const exact = new ExactPairCounts();
        for (const [row, id, weight] of stream) {
          table.add(row, id, weight);
          exact.add(row, id, weight);
        }
        for (let row = 0; row < 3; row++) {
          expect(table.size(row)).toBeLessThanOrEqual(2 * kept);
          for (const [id, weight] of entries(table, row)) expect(weight).toBeLessThanOrEqual(exact.weight(row, id));
        }
      }),
    );
  });

  test('When a full row meets a new neighbour, then the K strongest stay in row order, and one-off pairs go', () => {
    const table = new NeighborTable(2);
    table.add(0, 10, 1);
    table.add(0, 11, 5);
    table.add(0, 12, 1);
    table.add(0, 13, 3);
    table.add(0, 14, 1); // 5 > 2K entries: keep 11 (5) and 13 (3)
    expect(entries(table, 0)).toEqual([
      [11, 5],
      [13, 3],
    ]);
    table.add(0, 15, 3);
    table.add(0, 11, 1);
    table.add(0, 16, 3);
    table.add(0, 18, 3); // ties at 3 between 13, 15, 16 and the newcomer 18: the earliest stays
    expect(entries(table, 0)).toEqual([
      [11, 6],
      [13, 3],
    ]);
    table.add(0, 17, 7);
    table.add(0, 19, 1);
    table.add(0, 20, 1); // kept in row order, not by strength
    expect(entries(table, 0)).toEqual([
      [11, 6],
      [17, 7],
    ]);
    table.add(0, 14, 1); // a pruned pair restarts from its new weight
    expect(table.weight(0, 14)).toBe(1);
  });

  test('When the pool is compacted between adds, at any point, then every row still equals the reference, totals included, and no free block is left', () => {
    const withTotal = fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 39 }), weights, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 19 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.array(withTotal, { maxLength: 600, size: 'medium' }), (kept, totals, stream) => {
        const table = totals ? new NeighborTable(kept, true, byStrength) : new NeighborTable(kept);
        const reference = new ReferencePairCounts(kept, totals ? byStrength : undefined);
        for (const [row, id, weight, total, dice] of stream) {
          table.add(row, id, weight, totals ? total : weight);
          reference.add(row, id, weight, totals ? total : weight);
          if (dice === 0) {
            const liveBytes = table.usedBytes - table.freeBytes;
            table.compact();
            expect([table.usedBytes, table.freeBytes]).toEqual([liveBytes, 0]);
          }
        }
        for (let row = 0; row < 8; row++) {
          if (totals) expect(entriesWithTotals(table, row)).toEqual(reference.entriesWithTotals(row));
          else expect(entries(table, row)).toEqual(reference.entries(row));
          for (let id = 0; id < 40; id++) expect(table.weight(row, id)).toBe(reference.weight(row, id));
        }
      }),
    );
  });

  test('When rows leave small blocks behind, then free blocks never exceed 1/32 of the pool by more than one block: it is compacted before it grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), adds(60, 200, weights), (kept, stream) => {
        const table = new NeighborTable(kept);
        // A block of 2K entries: ids and weights (8 bytes each) and at most 4 index bytes each.
        const largestBlockBytes = 2 * kept * 12;
        for (const [row, id, weight] of stream) {
          table.add(row, id, weight);
          expect(table.freeBytes).toBeLessThanOrEqual(table.usedBytes / 32 + largestBlockBytes);
        }
      }),
    );
    // A store's shape: many rows pass through the small classes, then stay in the large one.
    const table = new NeighborTable(8);
    for (let round = 0; round < 16; round++) for (let row = 0; row < 2000; row++) table.add(row, round, 1);
    expect(table.freeBytes).toBeLessThan(table.usedBytes / 32);
  });

  test('When a table is restored from an export mid-stream, its pool copied or read fresh and taken over, its rows as the table holds them or in the three lists of older snapshots, then it goes on exactly as the original, totals kept or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), adds(6, 40, weights), adds(6, 40, weights), fc.boolean(), fc.boolean(), fc.boolean(), (kept, first, second, fresh, totals, legacy) => {
        const make = () => (totals ? new NeighborTable(kept, true, byStrength) : new NeighborTable(kept));
        const original = make();
        // Totals a third of the weight plus one: never equal to it, so a mixed-up lane shows.
        for (const [row, id, weight] of first) original.add(row, id, weight, weight / 3 + 1);
        const restored = make();
        const data = original.export();
        // A snapshot read hands its fresh bytes over (SnapshotStore.get): the table keeps that buffer.
        const given = legacy ? legacyRows(data) : data;
        restored.import(fresh ? { ...given, pool: handOver(data.pool.slice()) } : given);
        for (const [row, id, weight] of second) {
          original.add(row, id, weight, weight / 3 + 1);
          restored.add(row, id, weight, weight / 3 + 1);
        }
        for (let row = 0; row < 6; row++) expect(entriesWithTotals(restored, row)).toEqual(entriesWithTotals(original, row));
        expect(restored.export()).toEqual(original.export());
      }),
    );
  });

  test('When a table is exported and imported, then it holds the same rows and keeps counting from them', () => {
    const table = new NeighborTable(4);
    for (const [row, id, weight] of [
      [0, 1, 1],
      [0, 2, 3],
      [5, 1, 2],
      [200, 7, 1],
    ] as Add[]) table.add(row, id, weight);
    const copy = new NeighborTable(4);
    copy.import(table.export());
    for (const row of [0, 5, 200, 3]) expect(entries(copy, row)).toEqual(entries(table, row));
    expect(copy.entries()).toBe(4);
    copy.add(0, 2, 1);
    expect(copy.weight(0, 2)).toBe(4);
  });

  test('When an export is imported into a table that keeps totals differently, then the import is refused (the block layouts differ)', () => {
    const plain = new NeighborTable(4);
    plain.add(0, 1, 1);
    expect(() => new NeighborTable(4, true).import(plain.export())).toThrow(/with totals/);
    const counted = new NeighborTable(4, true);
    counted.add(0, 1, 1, 2);
    expect(() => new NeighborTable(4).import(counted.export())).toThrow(/does not fit/);
  });

  test('When the k-th largest of values is selected, then it equals the sorted pick, whatever the ties', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 100, noNaN: true })), { minLength: 1, maxLength: 300 }),
        fc.nat(),
        (values, pick) => {
          const k = 1 + (pick % values.length);
          const floats = Float32Array.from(values);
          const expected = Float32Array.from(values).sort().reverse()[k - 1];
          expect(kthLargest(floats, floats.length, k)).toBe(expected);
        },
      ),
    );
  });
});
