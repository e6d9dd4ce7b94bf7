// Frames ↔ values: text frames are JSON, binary frames msgpack (docs/api.md). A reply is encoded
// like the frame it answers. Decoding copies out of uWS's buffer, which dies when the handler returns.
import { Packr, Unpackr } from 'msgpackr';
import { AppError } from '../errors.js';

/** Plain maps and objects only (no msgpackr records), so any msgpack library can read our frames. */
const packr = new Packr({ useRecords: false });
/** copyBuffers: a binary value must not point into uWS's ArrayBuffer after the handler returns. */
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, copyBuffers: true });
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A frame ready for ws.send: a string (text frame) or bytes (binary frame). */
export type Frame = string | Uint8Array;

/** The decoded value, or AppError('invalid_json') for bytes that are not JSON/msgpack. */
export function decodeFrame(message: ArrayBuffer, binary: boolean): unknown {
  try {
    if (binary) return unpackr.unpack(new Uint8Array(message));
    return JSON.parse(utf8.decode(message));
  } catch {
    return new AppError('invalid_json', binary ? 'the binary frame is not valid msgpack' : 'the text frame is not valid JSON');
  }
}

export function encodeFrame(value: unknown, binary: boolean): Frame {
  return binary ? packr.pack(value) : JSON.stringify(value);
}
