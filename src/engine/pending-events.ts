// Events naming product ids the catalog has never had, held back from the models until the product
// appears: at most `perId` per id (its newest) and `maxEvents` in all, the least recently named id
// dropped whole when the budget is spent. Ids are whatever a public key sends, so this is the only
// place they may go, and its bound is the whole memory a flood of invented ids can take.
// One record per event in a pool of typed arrays (plus its shopper and order strings); per id a
// slot with its chain of records, oldest first, and the slots' recency in two Int32Array links (as
// LruSlots: a Map iterated from its oldest entry slows to a crawl as deletions pile up in front).
import { orderIdOf, type EngineEvent, type EventType } from './event.js';
import { RecencyList } from './recency-list.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

/** Event types by their code in a snapshot (append only: codes are stored). */
const TYPES: readonly EventType[] = ['impression', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'view'];
const TYPE_CODES = new Map(TYPES.map((type, code) => [type, code]));

export interface PendingEventsSnapshot {
  /** Ids from least to most recently named, and the events each holds (Uint16Array bytes). */
  ids: string[];
  counts: Uint8Array;
  /** Every event, by id in that order, oldest first: type code, time (Float64Array bytes), shopper, order id (null: none). */
  types: Uint8Array;
  times: Uint8Array;
  sessions: string[];
  customers: (string | null)[];
  orders: (string | null)[];
}

export class PendingEvents {
  readonly #slotOf = new Map<string, number>();
  readonly #ids: string[] = [];
  /** Slots from the least to the most recently named id. */
  readonly #recency: RecencyList;
  /** Per slot: oldest and newest record, records held. */
  #first = new Int32Array(0);
  #last = new Int32Array(0);
  #count = new Uint16Array(0);
  readonly #freeSlots: number[] = [];
  /** Per record: the next newer record of its id (-1: none), the event's fields. */
  #next = new Int32Array(0);
  #types = new Uint8Array(0);
  #times = new Float64Array(0);
  readonly #sessions: string[] = [];
  readonly #customers: (string | undefined)[] = [];
  readonly #orders: (string | undefined)[] = [];
  readonly #freeRecords: number[] = [];
  #records = 0;
  #size = 0;

  /**
   * @param maxEvents events held in all (0: none is ever held)
   * @param perId events held per product id, its newest, 1 to 65,535
   */
  constructor(
    readonly maxEvents: number,
    readonly perId: number,
  ) {
    if (!Number.isInteger(maxEvents) || maxEvents < 0) throw new RangeError(`pending events must be a non-negative integer, got ${maxEvents}`);
    if (!Number.isInteger(perId) || perId < 1 || perId > 65_535) throw new RangeError(`pending events per id must be 1-65535, got ${perId}`);
    this.#recency = new RecencyList(maxEvents);
  }

  /** Events held. */
  get size(): number {
    return this.#size;
  }

  /** Product ids with events held. */
  get idCount(): number {
    return this.#slotOf.size;
  }

  /** Holds the event as its id's newest, dropping its id's oldest past perId and the least recently named ids past maxEvents. */
  add(event: EngineEvent): void {
    if (this.maxEvents === 0) return;
    const id = event.productId;
    let slot = this.#slotOf.get(id);
    if (slot === undefined) slot = this.#newSlot(id);
    else this.#recency.touch(slot);
    if (this.#count[slot] === this.perId) this.#dropOldest(slot);
    while (this.#size >= this.maxEvents) {
      // Only when this id is the one left (maxEvents < perId) does it lose its own oldest.
      const oldest = this.#recency.oldest;
      if (oldest === slot) this.#dropOldest(slot);
      else this.#dropSlot(oldest);
    }
    const record = this.#newRecord();
    this.#types[record] = TYPE_CODES.get(event.type)!;
    this.#times[record] = event.timestamp;
    this.#sessions[record] = event.sessionId;
    this.#customers[record] = event.customerId;
    this.#orders[record] = orderIdOf(event);
    this.#next[record] = -1;
    if (this.#count[slot] === 0) this.#first[slot] = record;
    else this.#next[this.#last[slot]!] = record;
    this.#last[slot] = record;
    this.#count[slot]++;
    this.#size++;
  }

  /** Removes the id's events and returns them, oldest first (empty when none is held). */
  take(id: string): EngineEvent[] {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return [];
    const events: EngineEvent[] = [];
    for (let record = this.#first[slot]!, n = this.#count[slot]!; n > 0; record = this.#next[record]!, n--) events.push(this.#event(id, record));
    this.#dropSlot(slot);
    return events;
  }

  /**
   * Forgets which shopper held events were of (an erasure): those of the customer or of one of the
   * sessions lose their customerId and get an empty sessionId, so that, applied once their product
   * comes, they count only in the shared models. O(events held).
   */
  forget(customerId: string, sessionIds: readonly string[]): void {
    const sessions = new Set(sessionIds);
    for (let slot = this.#recency.oldest; slot !== -1; slot = this.#recency.newerThan(slot)) {
      for (let record = this.#first[slot]!, n = this.#count[slot]!; n > 0; record = this.#next[record]!, n--) {
        if (this.#customers[record] !== customerId && !sessions.has(this.#sessions[record]!)) continue;
        this.#customers[record] = undefined;
        this.#sessions[record] = '';
      }
    }
  }

  /** A copy of what is held (small: at most maxEvents records), in an order restore replays. */
  snapshot(): PendingEventsSnapshot {
    const ids: string[] = [];
    const counts = new Uint16Array(this.#slotOf.size);
    const types = new Uint8Array(this.#size);
    const times = new Float64Array(this.#size);
    const sessions: string[] = [];
    const customers: (string | null)[] = [];
    const orders: (string | null)[] = [];
    let k = 0;
    for (let slot = this.#recency.oldest; slot !== -1; slot = this.#recency.newerThan(slot)) {
      counts[ids.length] = this.#count[slot]!;
      ids.push(this.#ids[slot]!);
      for (let record = this.#first[slot]!, n = this.#count[slot]!; n > 0; record = this.#next[record]!, n--, k++) {
        types[k] = this.#types[record]!;
        times[k] = this.#times[record]!;
        sessions.push(this.#sessions[record]!);
        customers.push(this.#customers[record] ?? null);
        orders.push(this.#orders[record] ?? null);
      }
    }
    return { ids, counts: bytesOf(counts), types, times: bytesOf(times), sessions, customers, orders };
  }

  /** Restores a snapshot taken with the same bounds into an empty table. */
  restore(snapshot: PendingEventsSnapshot): void {
    if (this.#size > 0) throw new Error('restore needs an empty pending table');
    const counts = fromBytes(Uint16Array, snapshot.counts);
    const times = fromBytes(Float64Array, snapshot.times);
    const total = counts.reduce((sum, count) => sum + count, 0);
    const lengths = [snapshot.types.length, times.length, snapshot.sessions.length, snapshot.customers.length, snapshot.orders.length];
    if (counts.length !== snapshot.ids.length || lengths.some((length) => length !== total)) throw new Error('pending events snapshot is inconsistent');
    let k = 0;
    snapshot.ids.forEach((productId, i) => {
      for (let end = k + counts[i]!; k < end; k++) {
        const type = TYPES[snapshot.types[k]!];
        if (type === undefined) throw new Error(`pending events snapshot holds an unknown event type code ${snapshot.types[k]}`);
        const customerId = snapshot.customers[k];
        const orderId = snapshot.orders[k];
        this.add({
          type,
          productId,
          sessionId: snapshot.sessions[k]!,
          timestamp: times[k]!,
          ...(customerId != null ? { customerId } : {}),
          ...(orderId != null ? { metadata: { orderId } } : {}),
        });
      }
    });
  }

  #event(productId: string, record: number): EngineEvent {
    const customerId = this.#customers[record];
    const orderId = this.#orders[record];
    return {
      type: TYPES[this.#types[record]!]!,
      productId,
      sessionId: this.#sessions[record]!,
      timestamp: this.#times[record]!,
      ...(customerId !== undefined ? { customerId } : {}),
      ...(orderId !== undefined ? { metadata: { orderId } } : {}),
    };
  }

  /** A slot for a newly named id, linked as the most recently named. */
  #newSlot(id: string): number {
    const slot = this.#freeSlots.pop() ?? this.#ids.length;
    if (slot === this.#ids.length) {
      this.#ids.push(id);
      this.#recency.reserve(slot + 1);
      this.#first = grownTo(this.#first, slot + 1, this.maxEvents);
      this.#last = grownTo(this.#last, slot + 1, this.maxEvents);
      this.#count = grownTo(this.#count, slot + 1, this.maxEvents);
    } else {
      this.#ids[slot] = id;
    }
    this.#count[slot] = 0;
    this.#slotOf.set(id, slot);
    this.#recency.linkNewest(slot);
    return slot;
  }

  #newRecord(): number {
    const free = this.#freeRecords.pop();
    if (free !== undefined) return free;
    const record = this.#records++;
    if (record >= this.#next.length) {
      this.#next = grownTo(this.#next, record + 1, this.maxEvents);
      this.#types = grownTo(this.#types, record + 1, this.maxEvents);
      this.#times = grownTo(this.#times, record + 1, this.maxEvents);
    }
    return record;
  }

  #dropOldest(slot: number): void {
    const record = this.#first[slot]!;
    this.#first[slot] = this.#next[record]!;
    this.#count[slot]--;
    this.#freeRecord(record);
  }

  /** Drops the slot's id and all its events. */
  #dropSlot(slot: number): void {
    for (let record = this.#first[slot]!, n = this.#count[slot]!; n > 0; n--) {
      const next = this.#next[record]!;
      this.#freeRecord(record);
      record = next;
    }
    this.#count[slot] = 0;
    this.#slotOf.delete(this.#ids[slot]!);
    this.#ids[slot] = '';
    this.#recency.unlink(slot);
    this.#freeSlots.push(slot);
  }

  #freeRecord(record: number): void {
    // The strings go now: a freed record holds no shopper or order of a dropped event.
    this.#sessions[record] = '';
    this.#customers[record] = undefined;
    this.#orders[record] = undefined;
    this.#freeRecords.push(record);
    this.#size--;
  }
}
