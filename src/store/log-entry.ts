// One log entry: the eventIds of one append, in log order, stored as runs of consecutive ids.
// A ULID's last 16 characters are its random part, and monotonicFactory makes the ids of one
// millisecond by incrementing it, so a batch's ids (all made with one `now`) are one run: the
// entry is [firstId, count] instead of 100 ids of 30 characters, a fifth of the log's bytes per
// event. Ids that do not follow (other writers, other clocks) start a new run. Entries written
// before runs existed are plain id lists ([id, id, …]: no numbers) and read the same way.

/** As stored: [firstId, count, firstId, count, …], or a plain list of ids (older entries). */
export type LogEntry = readonly (string | number)[];

/** Crockford's base32, the alphabet of ULIDs, in value order. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters at the end of an id that count up within a run (a ULID's random part). */
const COUNTER_CHARS = 16;
const COUNTER = /[0-9A-HJKMNP-TV-Z]{16}$/;

/**
 * The id after `id` in a run: its last COUNTER_CHARS characters incremented as a base32 number;
 * undefined when they are not base32 or are all at their largest digit (a run ends there).
 */
export function nextInRun(id: string): string | undefined {
  if (!COUNTER.test(id)) return undefined;
  const last = ALPHABET.indexOf(id[id.length - 1]!);
  if (last < ALPHABET.length - 1) return id.slice(0, -1) + ALPHABET[last + 1]!; // no carry: 31 ids in 32
  const digits = id.split('');
  for (let i = digits.length - 1; i >= digits.length - COUNTER_CHARS; i--) {
    const value = ALPHABET.indexOf(digits[i]!);
    if (value < 0) return undefined;
    if (value < ALPHABET.length - 1) {
      digits[i] = ALPHABET[value + 1]!;
      return digits.join('');
    }
    digits[i] = ALPHABET[0]!;
  }
  return undefined;
}

/** The entry to store for an append's ids. */
export function toLogEntry(ids: readonly string[]): (string | number)[] {
  const entry: (string | number)[] = [];
  let i = 0;
  while (i < ids.length) {
    const first = ids[i]!;
    let count = 1;
    for (let expected = nextInRun(first); expected !== undefined && ids[i + count] === expected; expected = nextInRun(expected)) count++;
    entry.push(first, count);
    i += count;
  }
  return entry;
}

/** The entry's ids, in order. */
export function entryIds(entry: LogEntry): string[] {
  if (!isRuns(entry)) return entry as string[];
  const ids: string[] = [];
  for (let r = 0; r < entry.length; r += 2) {
    let id = entry[r] as string;
    const count = entry[r + 1] as number;
    for (let k = 0; k < count; k++) {
      ids.push(id);
      if (k + 1 < count) id = nextInRun(id)!;
    }
  }
  return ids;
}

/** An entry of runs has a count after its first id; an older entry is ids only. */
function isRuns(entry: LogEntry): boolean {
  return entry.length >= 2 && typeof entry[1] === 'number';
}
