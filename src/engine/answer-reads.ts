// What one answer read, recorded while it is computed: the model parts (a stamped index each) and
// the shoppers it resolved. The answer cache keeps a copy beside the answer and serves it
// again only while none of those parts changed (change-stamps.ts).
// A strategy records the parts that can change its answer: the rows it scanned and the items it
// returned. A candidate it did not return needs no record when a change can only lower its score
// (a neighbour's own count growing): it stays behind the returned ones. Unless it sets the scale
// the scores are taken relative to (the best pair of a bought-together row, the strongest
// real-time candidate of personalized): that one is read too, returned or not.
import type { Stamps } from './change-stamps.js';

export class AnswerReads {
  readonly parts: Stamps[] = [];
  readonly indices: number[] = [];
  /** The shoppers the answer resolved (key space and id: see shopper-keys.ts) and the slot each resolved to (-1: none). */
  readonly spaces: number[] = [];
  readonly ids: string[] = [];
  readonly slots: number[] = [];
  /** When the answer may change with time alone beyond the cache's age limit (a rule's window edge); Infinity: never. */
  expiresAt = Infinity;

  reset(): void {
    this.expiresAt = Infinity;
    this.parts.length = 0;
    this.indices.length = 0;
    this.spaces.length = 0;
    this.ids.length = 0;
    this.slots.length = 0;
  }

  read(part: Stamps, index: number): void {
    this.parts.push(part);
    this.indices.push(index);
  }

  resolved(space: number, id: string, slot: number): void {
    this.spaces.push(space);
    this.ids.push(id);
    this.slots.push(slot);
  }
}
