// Growing typed arrays, and typed arrays as bytes for snapshots. Every model keeps its counts in
// typed arrays indexed by a dense id or slot, grown geometrically as ids appear.

type TypedArray = Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array;

const KINDS = [Int32Array, Uint32Array, Float32Array, Float64Array, Uint8Array, Uint16Array] as const;

/**
 * The plain typed-array class of `array`. Not `array.constructor`: bytes a snapshot decoder hands
 * back may be a subclass (Node's Buffer, whose constructor is deprecated: DEP0005).
 */
function kindOf<T extends TypedArray>(array: T): new (length: number) => T {
  for (const kind of KINDS) if (array instanceof kind) return kind as unknown as new (length: number) => T;
  throw new TypeError('not one of the typed arrays the models use');
}

/** `array` when it already holds `minLength` elements, else a copy grown by doubling (at most `maxLength`, never below `minLength`). */
export function grownTo<T extends TypedArray>(array: T, minLength: number, maxLength = Infinity): T {
  if (array.length >= minLength) return array;
  let length = Math.max(64, array.length);
  while (length < minLength) length *= 2;
  length = Math.max(minLength, Math.min(length, maxLength));
  const grown = new (kindOf(array))(length);
  grown.set(array);
  return grown;
}

/** A byte view of the array (no copy): travels through any encoder (msgpack bin, LMDB binary values). */
export function bytesOf(array: TypedArray): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** Byte arrays nobody else holds (fresh reads of a stored snapshot): fromBytes takes them over instead of copying. */
const handedOver = new WeakSet<Uint8Array>();

/** Marks `bytes` as the caller's to give away: the array they become may use their buffer. */
export function handOver(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) handedOver.add(bytes);
  return bytes;
}

/** The array stored as `bytes`: their own buffer when handed over (once), else a copy in a fresh, aligned buffer. */
export function fromBytes<T extends TypedArray>(make: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number }, bytes: Uint8Array): T {
  if (bytes.byteLength % make.BYTES_PER_ELEMENT !== 0) throw new Error(`snapshot bytes do not hold whole ${make.name} elements`);
  if (handedOver.delete(bytes)) return new make(bytes.buffer as ArrayBuffer);
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new make(copy.buffer);
}
