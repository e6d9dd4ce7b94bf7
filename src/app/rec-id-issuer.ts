// The serial part of every recId an answer is delivered with (see engine/attribution/rec-id.ts for
// the id's format and what attribution reads back from it).
import { randomBytes } from 'node:crypto';

/**
 * Mints the serial part of ids: a random tag fixed per issuer (per process) and a counter, both
 * base36, so two processes (or a restart) do not repeat each other's ids in practice.
 */
export class RecIdIssuer {
  readonly #tag: string;
  #counter = 0;

  constructor(tag = randomBytes(5).readUInt32BE(0).toString(36)) {
    this.#tag = tag;
  }

  /** The serial of the next id (tag + counter; at most 8 + 11 characters). */
  next(): string {
    return this.#tag + (this.#counter++).toString(36);
  }
}
