// Byte offset → physical line of a stream, for parsers that report where a record ends in bytes
// but count lines their own way (csv-parse counts a CRLF inside a quoted field as two lines).
import { Transform, type TransformCallback } from 'node:stream';

const LF = 10;

/**
 * Pass the stream through `tap()`, then ask `lineOf(offset)` with offsets that never decrease.
 * It holds only the chunks between the last offset asked and what has passed through.
 */
export class LineIndex {
  readonly #chunks: Buffer[] = [];
  /** Offset of the first byte of #chunks[0]; position scanned up to, and the line there. */
  #chunksStart = 0;
  #scanned = 0;
  #line = 1;

  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) => {
        this.#chunks.push(chunk);
        callback(null, chunk);
      },
    });
  }

  /** The line (1-based, counted by LF) of the byte at `offset`. */
  lineOf(offset: number): number {
    while (this.#scanned < offset && this.#chunks.length > 0) {
      const chunk = this.#chunks[0]!;
      const end = Math.min(offset, this.#chunksStart + chunk.length);
      let at = this.#scanned - this.#chunksStart;
      const stop = end - this.#chunksStart;
      for (;;) {
        at = chunk.indexOf(LF, at);
        if (at < 0 || at >= stop) break;
        this.#line++;
        at++;
      }
      this.#scanned = end;
      if (end === this.#chunksStart + chunk.length) {
        this.#chunks.shift();
        this.#chunksStart = end;
      }
    }
    return this.#line;
  }
}
