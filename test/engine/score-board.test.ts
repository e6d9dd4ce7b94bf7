import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ScoreBoard } from '../../src/engine/score-board.js';

type Add = { kind: 'add'; id: number; value: number; flags: number };
/** A row added at once (addRow), read from `offset` into its arrays; its ids may repeat. */
type Row = { kind: 'row'; ids: number[]; values: number[]; offset: number; factor: number; flags: number };
type Step = Add | Row | { kind: 'scale'; factor: number } | { kind: 'clear' };

/** The reference: a Map of id → [score, flags] in first-touch order, cleared by making a new one. */
class ReferenceBoard {
  entries = new Map<number, { score: number; flags: number }>();

  apply(step: Step): void {
    if (step.kind === 'clear') this.entries = new Map();
    else if (step.kind === 'scale') for (const entry of this.entries.values()) entry.score *= step.factor;
    else if (step.kind === 'row') {
      step.ids.forEach((id, k) => this.apply({ kind: 'add', id, value: step.values[k]! * step.factor, flags: step.flags }));
    } else {
      const entry = this.entries.get(step.id) ?? { score: 0, flags: 1 };
      entry.score += step.value;
      entry.flags |= step.flags;
      this.entries.set(step.id, entry);
    }
  }
}

// Ids past the board's first 1,024 make it grow mid-stream.
const boardId = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5000 }));
const row = fc
  .record({ entries: fc.array(fc.record({ id: boardId, value: fc.double({ min: -10, max: 10, noNaN: true }) }), { maxLength: 30 }), offset: fc.nat(5), factor: fc.double({ min: -4, max: 4, noNaN: true }), flags: fc.constantFrom(0, 2, 4) })
  .map(({ entries, offset, factor, flags }): Row => ({ kind: 'row', ids: entries.map((e) => e.id), values: entries.map((e) => e.value), offset, factor, flags }));
const steps = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('add' as const), id: boardId, value: fc.double({ min: -10, max: 10, noNaN: true }), flags: fc.constantFrom(0, 2, 4) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('scale' as const), factor: fc.double({ min: 0, max: 4, noNaN: true }) }) },
    { weight: 2, arbitrary: row },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
  ),
  { maxLength: 200 },
);

describe('ScoreBoard', () => {
  test('Given any adds, rows, scales and clears, then it holds the scores, flags and touch order of a Map doing the same', () => {
    fc.assert(
      fc.property(steps, (stream) => {
        const board = new ScoreBoard();
        const reference = new ReferenceBoard();
        for (const step of stream) {
          if (step.kind === 'add') board.add(step.id, step.value, step.flags);
          else if (step.kind === 'row') {
            // The row sits at `offset` in longer arrays, as a row sits in a model's pool.
            const ids = Int32Array.from([...Array<number>(step.offset).fill(7), ...step.ids]);
            const values = Float64Array.from([...Array<number>(step.offset).fill(99), ...step.values]);
            board.addRow(ids, step.offset, values, step.offset, step.ids.length, step.factor, step.flags);
          } else if (step.kind === 'scale') board.scale(step.factor);
          else board.clear();
          reference.apply(step);
        }
        const touched = Array.from({ length: board.touchedCount }, (_, i) => board.touchedAt(i));
        expect(touched).toEqual([...reference.entries.keys()]);
        for (const [id, { score, flags }] of reference.entries) {
          expect(board.score(id)).toBe(score);
          expect(board.flags(id)).toBe(flags);
        }
        // A cleared id reads as untouched.
        for (let id = 0; id <= 40; id++) if (!reference.entries.has(id)) expect([board.score(id), board.flags(id)]).toEqual([0, 0]);
      }),
    );
  });
});
