// The `position` of a write acknowledgement, as clients see it: opaque, handed back as `after=` (or
// `Pairwise-After:`) to read their own writes from any server process. It is the log's id (so a
// position from another deployment's log is told apart) and the shop's log position in base 36.
import { AppError } from '../errors.js';

/** A log id: 8 characters of a-z and 0-9, made once per data dir. */
export const LOG_ID = /^[a-z0-9]{8}$/;
/** Positions are safe integers: at most 11 base-36 digits. */
const TOKEN = /^([a-z0-9]{8})\.([0-9a-z]{1,11})$/;

export function formatPosition(logId: string, position: number): string {
  return `${logId}.${position.toString(36)}`;
}

/**
 * The log position a token names, for the log `logId`; throws AppError('invalid_position') for a
 * malformed token or one of another log.
 */
export function parsePosition(logId: string, raw: string, pointer = '/after'): number {
  const match = TOKEN.exec(raw);
  const position = match === null ? NaN : parseInt(match[2]!, 36);
  if (match === null || !Number.isSafeInteger(position)) {
    throw new AppError('invalid_position', 'after must be a position from a write acknowledgement', [{ pointer, detail: 'not a position' }]);
  }
  if (match[1] !== logId) {
    throw new AppError('invalid_position', 'after is a position of another Pairwise deployment (another data dir)', [{ pointer, detail: 'foreign position' }]);
  }
  return position;
}
