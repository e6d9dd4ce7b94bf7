// A snapshot as a small header plus binary parts: every byte array of SPLIT_BYTES or more in the
// state becomes a part (stored as a raw LMDB value, no encoding pass over it) and its place in the
// header a `{ $part: index }` marker; so does every list of SPLIT_STRINGS or more strings (or nulls; the
// catalog's ids, the shopper and basket keys), encoded as JSON text a slice at a time, marker
// `{ $strings: index }`. The header left is a few hundred small values.
// splitParts copies only that header; copyParts copies the parts a slice at a time, so a snapshot
// of a large store never holds the event loop for long, and handing the header to the writer
// thread clones almost nothing.

/** Byte arrays at least this long become parts; shorter ones stay inline in the header. */
export const SPLIT_BYTES = 1024;

/** String lists at least this long become parts (their copy is sliced too). */
export const SPLIT_STRINGS = 1024;
/** Strings encoded per step of a string part's copy, one step per turn (~1-2 ms). */
const STRINGS_PER_STEP = 8192;

interface PartMarker {
  $part: number;
}

interface StringsMarker {
  $strings: number;
}

/** What a part is before its copy: a live byte array, or a live list of strings. */
export type SourcePart = Uint8Array | readonly string[];

/** Parts are copied at most this many bytes per turn of the event loop (~1-2 ms into memory already mapped). */
export const SLICE_BYTES = 4 * 1024 * 1024;
/**
 * ...and for at most about this long per turn, in ms. A copy into fresh buffers (a snapshot larger
 * than the kept arena) faults in every page it writes: 4 MB slices took 14-30 ms a turn under
 * request load at 100k products / 2M events, against ~1-2 ms into the arena.
 */
export const SLICE_MS = 4;
/** Bytes copied between two looks at the clock. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * A copy of the value with its large byte arrays and string lists replaced by markers, and those
 * (not copied: the caller copies them with copyParts) in marker order.
 */
export function splitParts<T>(value: T): { header: unknown; parts: SourcePart[] } {
  const parts: SourcePart[] = [];
  const walk = (node: unknown): unknown => {
    if (node instanceof Uint8Array) {
      if (node.byteLength < SPLIT_BYTES) return node.slice();
      parts.push(node);
      return { $part: parts.length - 1 } satisfies PartMarker;
    }
    if (Array.isArray(node)) {
      // Checked element by element as it is encoded (copyParts): here only its first, so that
      // splitting takes no pass over the 300k ids and keys of a large store in one turn.
      if (node.length >= SPLIT_STRINGS && typeof node[0] === 'string') {
        parts.push(node as string[]);
        return { $strings: parts.length - 1 } satisfies StringsMarker;
      }
      const copy = node.slice();
      for (let i = 0; i < copy.length; i++) {
        const child: unknown = copy[i];
        if (child !== null && typeof child === 'object') copy[i] = walk(child);
      }
      return copy;
    }
    if (node !== null && typeof node === 'object') {
      if (ArrayBuffer.isView(node)) throw new Error('snapshot state holds a typed array other than Uint8Array');
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) out[key] = walk(child);
      return out;
    }
    return node;
  };
  return { header: walk(value), parts };
}

/** The header with each marker replaced by `part(index)`; throws when the header holds no such part. */
export function joinParts<T>(header: unknown, part: (index: number) => Uint8Array | undefined): T {
  const walk = (node: unknown): unknown => {
    if (node instanceof Uint8Array || node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(walk);
    const index = markerIndex(node);
    if (index !== undefined) {
      const bytes = part(index);
      if (bytes === undefined) throw new Error(`snapshot part ${index} is missing`);
      return '$strings' in node ? decodeStrings(bytes) : bytes;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child);
    return out;
  };
  return walk(header) as T;
}

/** The part index of a `$part` or `$strings` marker; undefined for any other object. */
function markerIndex(node: object): number | undefined {
  const keys = Object.keys(node);
  if (keys.length !== 1 || (keys[0] !== '$part' && keys[0] !== '$strings')) return undefined;
  const index: unknown = (node as Record<string, unknown>)[keys[0]];
  return Number.isInteger(index) ? (index as number) : undefined;
}

/** Throws unless every element from `start` to `end` is a string or null (what a string part's JSON restores as it was). */
function checkStrings(list: readonly unknown[], start: number, end: number): void {
  for (let i = start; i < end; i++) {
    const value = list[i];
    if (typeof value !== 'string' && value !== null) throw new Error(`snapshot state: a list of strings holds a ${typeof value} at ${i}`);
  }
}

const NEWLINE = 10;

/** A string list's part: JSON arrays of STRINGS_PER_STEP strings, one per line (JSON text never holds a raw newline). */
function decodeStrings(bytes: Uint8Array): string[] {
  const strings: string[] = [];
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    const chunk = JSON.parse(line) as string[];
    for (let i = 0; i < chunk.length; i++) strings.push(chunk[i]!);
  }
  return strings;
}

/** The byte lengths of the parts that are byte arrays, in order: what copyParts' `targets` must hold. */
export function byteCopySizes(parts: readonly SourcePart[]): number[] {
  const sizes: number[] = [];
  for (const part of parts) if (part instanceof Uint8Array) sizes.push(part.byteLength);
  return sizes;
}

/**
 * Copies of the parts as bytes, made at most `sliceBytes` and about `sliceMs` at a time (the clock
 * is read every CHUNK_BYTES) with `pause()` awaited between slices (a string list:
 * STRINGS_PER_STEP strings per step, each step a slice of its own).
 * Byte arrays are copied into `targets` (one per byte part, of its length: see byteCopySizes) when
 * given, else into fresh buffers; string lists always get fresh ones (their encoded size is known
 * only once encoded, and they are a few MB at most).
 * The parts must not change until it resolves (the caller holds the models still meanwhile).
 */
export async function copyParts(
  parts: readonly SourcePart[],
  pause: () => Promise<void>,
  sliceBytes = SLICE_BYTES,
  targets?: readonly Uint8Array[],
  sliceMs = SLICE_MS,
): Promise<Uint8Array[]> {
  const copies: Uint8Array[] = [];
  let sliceLeft = sliceBytes;
  let sliceStart = performance.now();
  let nextTarget = 0;
  for (const part of parts) {
    if (!(part instanceof Uint8Array)) {
      const lines: Uint8Array[] = [];
      for (let start = 0; start < part.length; start += STRINGS_PER_STEP) {
        // A step of strings is a turn's work on its own: encoding costs ~10-20x a byte copy per
        // byte, so counted in bytes the 300k ids and keys of a large store went in one 30 ms turn.
        if (sliceLeft < sliceBytes) await pause();
        const end = Math.min(part.length, start + STRINGS_PER_STEP);
        checkStrings(part, start, end);
        lines.push(new TextEncoder().encode(JSON.stringify(part.slice(start, end))));
        sliceLeft = 0;
      }
      copies.push(joinLines(lines));
      continue;
    }
    const copy = targets === undefined ? new Uint8Array(part.byteLength) : targets[nextTarget++]!;
    if (copy.byteLength !== part.byteLength) throw new Error('a copy target does not match its part');
    for (let offset = 0; offset < part.byteLength; ) {
      if (sliceLeft === 0 || (sliceLeft < sliceBytes && performance.now() - sliceStart >= sliceMs)) {
        await pause();
        sliceLeft = sliceBytes;
        sliceStart = performance.now();
      }
      const end = Math.min(part.byteLength, offset + Math.min(sliceLeft, CHUNK_BYTES));
      copy.set(part.subarray(offset, end), offset);
      sliceLeft -= end - offset;
      offset = end;
    }
    copies.push(copy);
  }
  return copies;
}

function joinLines(lines: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(lines.reduce((sum, line) => sum + line.byteLength + 1, -1));
  let offset = 0;
  for (const line of lines) {
    if (offset > 0) joined[offset++] = NEWLINE;
    joined.set(line, offset);
    offset += line.byteLength;
  }
  return joined;
}
