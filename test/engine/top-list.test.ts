import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TopList } from '../../src/engine/top-list.js';
import { ask, engineWith, event, idsOf, T0 } from './fixtures.js';

/** Scores kept in a plain map, grown by the test before each touch (TopList assumes scores only grow). */
class Scores {
  readonly values = new Map<number, number>();
  raw(id: number): number {
    return this.values.get(id) ?? 0;
  }
  grow(id: number, by: number): void {
    this.values.set(id, this.raw(id) + by);
  }
}

function listWith(capacity: number, touches: readonly [id: number, score: number][]): { top: TopList; scores: Scores } {
  const scores = new Scores();
  const top = new TopList(scores, capacity);
  for (const [id, by] of touches) {
    scores.grow(id, by);
    top.touch(id);
  }
  return { top, scores };
}

describe('TopList', () => {
  test('When ids are touched below capacity, then they are kept in descending score order', () => {
    const { top } = listWith(4, [
      [1, 1],
      [2, 3],
      [3, 2],
      [1, 5], // 1 now has 6
    ]);
    expect([...top.ids]).toEqual([1, 2, 3]);
    expect(top.complete).toBe(true);
  });

  test('When a higher id arrives at capacity, then the lowest is evicted and complete turns false', () => {
    const { top } = listWith(2, [
      [1, 5],
      [2, 4],
      [3, 6],
    ]);
    expect([...top.ids]).toEqual([3, 1]);
    expect(top.complete).toBe(false);
  });

  test('When a lower id is turned away at capacity, then complete turns false (it has a score but is not listed)', () => {
    const { top } = listWith(2, [
      [1, 5],
      [2, 4],
      [3, 1],
    ]);
    expect([...top.ids]).toEqual([1, 2]);
    expect(top.complete).toBe(false);
  });

  test('When an id is removed, then it leaves the list and complete turns false', () => {
    const { top, scores } = listWith(3, [
      [1, 5],
      [2, 4],
      [3, 3],
    ]);
    top.remove(2);
    top.remove(99); // not a member: nothing happens
    expect([...top.ids]).toEqual([1, 3]);
    expect(top.complete).toBe(false);
    scores.grow(4, 6);
    top.touch(4);
    scores.grow(3, 1);
    top.touch(3);
    expect([...top.ids]).toEqual([4, 1, 3]);
  });

  test('When scores grow under random touches, then the list stays sorted and equals a brute-force top `capacity`', () => {
    const touch = fc.tuple(fc.integer({ min: 0, max: 19 }), fc.integer({ min: 1, max: 10 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(touch, { maxLength: 80 }), (capacity, touches) => {
        const { top, scores } = listWith(capacity, touches);
        const listed = Array.from(top.ids, (id) => scores.raw(id));
        for (let i = 1; i < listed.length; i++) expect(listed[i - 1]).toBeGreaterThanOrEqual(listed[i]!);
        expect(new Set(top.ids).size).toBe(top.ids.length);
        const best = [...scores.values.values()].sort((a, b) => b - a).slice(0, capacity);
        expect(listed).toEqual(best);
        // Exactly the brute-force ranking: score descending, ties by id.
        const ranking = [...scores.values.keys()].sort((a, b) => scores.raw(b) - scores.raw(a) || a - b).slice(0, capacity);
        expect([...top.ids]).toEqual(ranking);
        if (top.complete) expect([...top.ids].sort((a, b) => a - b)).toEqual([...scores.values.keys()].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  test('When the top list is exhausted and incomplete, then the scan fallback still returns the true best', () => {
    const engine = engineWith(['a', 'b', 'c', 'd'], { topListSize: 2 });
    engine.apply(event('purchase', 'a', T0)); // 6
    engine.apply(event('add_to_cart', 'b', T0)); // 4
    engine.apply(event('view', 'c', T0)); // 1: turned away by the full list
    engine.apply(event('click', 'd', T0)); // 2: turned away too
    const result = ask(engine, { strategy: 'trending', exclude: ['a', 'b'] }, T0);
    expect(idsOf(result)).toEqual(['d', 'c']);
    expect(result.items.every((item) => item.score > 0)).toBe(true);
  });
});
