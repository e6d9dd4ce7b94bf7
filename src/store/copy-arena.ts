// The buffer a snapshot's byte parts are copied into, kept from one snapshot to the next.
// Why keep it: ~100 MB of fresh ArrayBuffers per snapshot (100k products / 2M events) make V8
// count "external memory pressure" and run scavenges and mark-compact steps on the main thread,
// 30-110 ms turns in the middle of request traffic; copying into the same memory again triggers
// nothing (measured: the longest turn of a copy fell from 29-44 ms to 7-9 ms). It is a
// SharedArrayBuffer so the writer thread can read it without a transfer, and the main thread
// keeps it: a buffer transferred there and back is accounted as new memory on each arrival.
// The cost is resident memory the size of the largest shop's byte parts, held between snapshots,
// so it is kept only up to a bound (PAIRWISE_SNAPSHOT_KEEP_BUFFER_MB): a larger snapshot is copied
// into fresh buffers, freed after its write. At 100k products / 2M events that is ~150 MB not held
// (the 100k perf kit's server ended at 0.97 GB instead of 1.09 GB), for one collection per snapshot.

/** Room for growth taken when the arena is replaced, so a growing store does not replace it at every snapshot. */
export const HEADROOM = 1.1;
/** Each part starts on an 8-byte boundary, so any typed array can view it in place. */
const ALIGN = 8;

/** The parts' copies and the promise to hand their memory back once nothing reads them any more. */
export interface ArenaLease {
  views: Uint8Array[];
  release(): void;
}

export class CopyArena {
  #buffer: SharedArrayBuffer | undefined;
  #lent = false;

  /** @param maxBytes the most it keeps: parts that need more are not lent (0: it never lends) */
  constructor(readonly maxBytes = Infinity) {}

  /** Bytes held between snapshots. */
  get byteLength(): number {
    return this.#buffer?.byteLength ?? 0;
  }

  /**
   * Views of the given sizes inside the arena, lent until `release()`; undefined while an earlier
   * lease is still out, or when they need more than `maxBytes` (the memory held is then let go):
   * the caller copies into fresh buffers instead. The views' contents are whatever the last lease
   * left: the caller overwrites every byte.
   */
  lend(sizes: readonly number[]): ArenaLease | undefined {
    if (this.#lent) return undefined;
    let total = 0;
    for (const size of sizes) total += alignUp(size);
    if (total > this.maxBytes) {
      this.#buffer = undefined;
      return undefined;
    }
    if (this.#buffer === undefined || this.#buffer.byteLength < total) {
      this.#buffer = undefined; // dropped before the new one is made, so both are never held
      this.#buffer = new SharedArrayBuffer(alignUp(Math.min(Math.ceil(total * HEADROOM), this.maxBytes))); // ≥ total: total ≤ maxBytes here
    }
    const buffer = this.#buffer;
    const views: Uint8Array[] = [];
    let offset = 0;
    for (const size of sizes) {
      views.push(new Uint8Array(buffer, offset, size));
      offset += alignUp(size);
    }
    this.#lent = true;
    let released = false;
    return {
      views,
      release: () => {
        if (released) return;
        released = true;
        this.#lent = false;
      },
    };
  }

  /** Lets the memory go (at close); a lease still out keeps its views valid until it is dropped. */
  clear(): void {
    this.#buffer = undefined;
  }
}

function alignUp(size: number): number {
  return Math.ceil(size / ALIGN) * ALIGN;
}
