// A snapshot as a small header plus binary parts: every byte array of SPLIT_BYTES or more in the
// state becomes a part (stored as a raw LMDB value, no encoding pass over it) and its place in the
// header a `{ $part: index }` marker. The header (ids, keys, small arrays) stays msgpack.

/** Byte arrays at least this long become parts; shorter ones stay inline in the header. */
export const SPLIT_BYTES = 1024;

interface PartMarker {
  $part: number;
}

/** The value with its large byte arrays replaced by markers, and those arrays in marker order. */
export function splitParts<T>(value: T): { header: unknown; parts: Uint8Array[] } {
  const parts: Uint8Array[] = [];
  const walk = (node: unknown): unknown => {
    if (node instanceof Uint8Array) {
      if (node.byteLength < SPLIT_BYTES) return node;
      parts.push(node);
      return { $part: parts.length - 1 } satisfies PartMarker;
    }
    if (Array.isArray(node)) return node.map(walk);
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
