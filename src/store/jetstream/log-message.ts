// What a node publishes to the replicated log, one message per write, and what materializing it
// stored (the outcome a writer reads back on its own node). Encoded with MessagePack.
import { Packr } from 'msgpackr';
import type { EaseArtifact } from '../log-entry.js';
import type { ShopCommand } from '../shop-command.js';
import type { NewEvent, Sender } from '../shop-log.js';
import type { WriteOutcome } from '../records.js';

export type { WriteOutcome };

export type LogMessage =
  /** An append of events: de-duplicated by messageId when materialized, against `dedupSince` (so on every node alike). */
  | { kind: 'events'; events: readonly NewEvent[]; receivedAt: number; dedupSince: number; sender: Sender }
  | { kind: 'command'; command: ShopCommand; at: number }
  /** An EASE fit, its artifact in the fits object store under `object` (too large for a message). */
  | { kind: 'ease-fit'; object: string; fittedThrough: number; at: number }
  | { kind: 'erase-shop' };

// Plain maps: messages cross processes and versions, and are read once.
const packr = new Packr({ useRecords: false, moreTypes: false });

export function encodeMessage(message: LogMessage): Uint8Array {
  return packr.pack(message);
}

/** The message, or undefined when the bytes are not one (a stream written by something else). */
export function decodeMessage(bytes: Uint8Array): LogMessage | undefined {
  let value: unknown;
  try {
    value = packr.unpack(bytes);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'events' || kind === 'command' || kind === 'ease-fit' || kind === 'erase-shop' ? (value as LogMessage) : undefined;
}

/** An EASE artifact as stored in the fits object store. */
export function encodeArtifact(artifact: EaseArtifact): Uint8Array {
  return packr.pack(artifact);
}

export function decodeArtifact(bytes: Uint8Array): EaseArtifact {
  return packr.unpack(bytes) as EaseArtifact;
}
