// A snapshot as a small header plus binary parts: every byte array of SPLIT_BYTES or more in the
// state becomes a part (stored as a raw LMDB value, no encoding pass over it) and its place in the
// header a `{ $part: index }` marker. The header (ids, keys, small arrays) stays msgpack.
// splitParts copies everything but the parts; copyParts copies those a slice at a time, so a
// snapshot of a large store never holds the event loop for long.

/** Byte arrays at least this long become parts; shorter ones stay inline in the header. */
export const SPLIT_BYTES = 1024;

interface PartMarker {
  $part: number;
}

/** Parts are copied at most this many bytes per turn of the event loop (1-10 ms: the copy lands on fresh pages). */
export const SLICE_BYTES = 4 * 1024 * 1024;

/**
 * A copy of the value with its large byte arrays replaced by markers, and those arrays (not
 * copied: the caller copies them with copyParts) in marker order.
 */
export function splitParts<T>(value: T): { header: unknown; parts: Uint8Array[] } {
  const parts: Uint8Array[] = [];
  const walk = (node: unknown): unknown => {
    if (node instanceof Uint8Array) {
      if (node.byteLength < SPLIT_BYTES) return node.slice();
      parts.push(node);
      return { $part: parts.length - 1 } satisfies PartMarker;
    }
    if (Array.isArray(node)) {
      // One loop, no call per element: lists of 200k shopper keys are copied in the snapshot's first turn.
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
    if (isMarker(node)) {
      const bytes = part(node.$part);
      if (bytes === undefined) throw new Error(`snapshot part ${node.$part} is missing`);
      return bytes;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child);
    return out;
  };
  return walk(header) as T;
}

function isMarker(node: object): node is PartMarker {
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0] === '$part' && Number.isInteger((node as PartMarker).$part);
}

/**
 * Copies of the parts, made at most `sliceBytes` at a time with `pause()` awaited between slices.
 * The parts must not change until it resolves (the caller holds the models still meanwhile).
 */
export async function copyParts(parts: readonly Uint8Array[], pause: () => Promise<void>, sliceBytes = SLICE_BYTES): Promise<Uint8Array[]> {
  const copies: Uint8Array[] = [];
  let sliceLeft = sliceBytes;
  for (const part of parts) {
    const copy = new Uint8Array(part.byteLength);
    for (let offset = 0; offset < part.byteLength; ) {
      if (sliceLeft === 0) {
        await pause();
        sliceLeft = sliceBytes;
      }
      const end = Math.min(part.byteLength, offset + sliceLeft);
      copy.set(part.subarray(offset, end), offset);
      sliceLeft -= end - offset;
      offset = end;
    }
    copies.push(copy);
  }
  return copies;
}
