// What the widget remembers in the browser: the session id (per browser session, sessionStorage),
// and the products this shopper hid or saved (localStorage, so a hidden card stays hidden).
// Storage can be unavailable (privacy modes): everything degrades to memory for this page.

const SESSION_KEY = 'pairwise.sessionId';
const HIDDEN_KEY = 'pairwise.hidden';
const SAVED_KEY = 'pairwise.saved';
/** A hidden product stays hidden this long (the server forgets a dismissal after 30 days too). */
const HIDDEN_TTL_MS = 30 * 86_400_000;
/** Entries kept per list; the oldest go first. */
const MAX_ENTRIES = 200;

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    // Full or forbidden: the in-memory copy still serves this page.
  }
}

const session = () => window.sessionStorage;
const local = () => window.localStorage;

/** Random id from crypto.getRandomValues (randomUUID needs a secure context; shops may be on http). */
export function randomId(prefix: string): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  let id = prefix;
  for (let i = 0; i < bytes.length; i++) id += bytes[i]!.toString(16).padStart(2, '0');
  return id;
}

let sessionId: string | undefined;

export function getSessionId(): string {
  sessionId ??= read(session, SESSION_KEY) ?? undefined;
  if (sessionId === undefined) {
    sessionId = randomId('s_');
    write(session, SESSION_KEY, sessionId);
  }
  return sessionId;
}

/** A product-id → epoch-ms map persisted as JSON. */
class ProductSet {
  #entries: Record<string, number> | undefined;

  constructor(
    readonly key: string,
    readonly ttlMs: number,
  ) {}

  has(id: string): boolean {
    const at = this.#load()[id];
    return at !== undefined && Date.now() - at < this.ttlMs;
  }

  add(id: string): void {
    const entries = this.#load();
    entries[id] = Date.now();
    const ids = Object.keys(entries);
    if (ids.length > MAX_ENTRIES) {
      ids.sort((a, b) => entries[a]! - entries[b]!);
      for (const old of ids.slice(0, ids.length - MAX_ENTRIES)) delete entries[old];
    }
    write(local, this.key, JSON.stringify(entries));
  }

  delete(id: string): void {
    delete this.#load()[id];
    write(local, this.key, JSON.stringify(this.#entries));
  }

  #load(): Record<string, number> {
    if (this.#entries === undefined) {
      try {
        const parsed: unknown = JSON.parse(read(local, this.key) ?? '{}');
        this.#entries = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, number>) : {};
      } catch {
        this.#entries = {};
      }
    }
    return this.#entries;
  }
}

export const hiddenProducts = new ProductSet(HIDDEN_KEY, HIDDEN_TTL_MS);
export const savedProducts = new ProductSet(SAVED_KEY, Infinity);

/** Events not yet acknowledged survive a navigation here and are sent again on the next page. */
const OUTBOX_KEY = 'pairwise.outbox';

export function loadOutbox<T>(): T[] {
  try {
    const parsed: unknown = JSON.parse(read(session, OUTBOX_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

export function saveOutbox<T>(items: readonly T[]): void {
  if (items.length === 0) {
    try {
      session().removeItem(OUTBOX_KEY);
    } catch {
      // nothing to do
    }
  } else write(session, OUTBOX_KEY, JSON.stringify(items));
}

/**
 * The position of the latest write this browser session had acknowledged (events, over either
 * transport): lists are asked for `after` it, so that whichever server process answers, it has
 * applied that write (read-your-writes across server processes and pages).
 */
const POSITION_KEY = 'pairwise.position';

/** The position's number (base 36 after the log id): which of two positions is the later. */
function positionOrder(position: string): number {
  const n = parseInt(position.slice(position.indexOf('.') + 1), 36);
  return Number.isFinite(n) ? n : -1;
}

export function loadPosition(): string | undefined {
  return read(session, POSITION_KEY) ?? undefined;
}

/** Keeps `position` when it is later than the one kept (acks may arrive out of order). */
export function notePosition(position: string | undefined): void {
  if (typeof position !== 'string' || position === '') return;
  const kept = loadPosition();
  if (kept === undefined || positionOrder(position) > positionOrder(kept) || kept.slice(0, kept.indexOf('.')) !== position.slice(0, position.indexOf('.'))) write(session, POSITION_KEY, position);
}

/** Forgets the kept position (the server did not know it: its data dir was reset, say). */
export function forgetPosition(): void {
  try {
    session().removeItem(POSITION_KEY);
  } catch {
    // nothing to do
  }
}
