// The pre-aggregated numbers behind the statistics: per UTC day and per key (strategy, widget,
// experiment, variant) eight counters — impressions, clicks, attributed add-to-carts, orders,
// revenue, the storefront-reported part of it, and the clicks that went on to a cart and to an order
// (counted on the click's own cell, so each cell's are at most its clicks) — in one growing
// Float64Array, found through one Map from a numeric cell key. A stats
// query reads these cells only (a few per key and day), never the events.
// Bounded whatever the input: MAX_DAYS days (the oldest dropped first; an event older than every
// kept day when full is not counted) and MAX_CELLS cells; past that, a day's new keys are counted
// in that day's OVERFLOW_KEY cell. The per-product table (product-cells.ts) uses its own bounds and
// drops its oldest day instead when full, so the recent days always count.
import { bytesOf, fromBytes, grownTo } from '../typed-arrays.js';

export const DAY_MS = 86_400_000;
export const MAX_DAYS = 400;
export const MAX_CELLS = 200_000;

/** Counters of a cell, at row * FIELDS + field. */
export const IMPRESSIONS = 0;
export const CLICKS = 1;
export const ADD_TO_CARTS = 2;
export const ORDERS = 3;
export const REVENUE = 4;
/** The part of REVENUE from purchases a public key sent (bounded by the catalog: attribution.ts). */
export const STOREFRONT_REVENUE = 5;
/** Of the cell's clicks, those followed by an add_to_cart of the product within the window (each click once). */
export const CARTED_CLICKS = 6;
/** Of the cell's clicks, those followed by a purchase of the product within the window (each click once). */
export const CONVERTED_CLICKS = 7;
export const FIELDS = 8;
/** Counters per cell in older snapshots: before STOREFRONT_REVENUE (5), before the carted and converted clicks (6); the rest read as 0. */
const OLDER_FIELDS: readonly number[] = [5, 6];

/** Key layout: strategy (0-7) | widget (0-511) | variant (0-15) | experiment (0-46,655), below 2^32. */
export function packKey(strategy: number, widget: number, experiment: number, variant: number): number {
  return ((experiment * 16 + variant) * 512 + widget) * 8 + strategy;
}

export function keyStrategy(key: number): number {
  return key % 8;
}

export function keyWidget(key: number): number {
  return Math.floor(key / 8) % 512;
}

/** The key with its widget replaced. */
export function withWidget(key: number, widget: number): number {
  return key + (widget - keyWidget(key)) * 8;
}

export function keyVariant(key: number): number {
  return Math.floor(key / 4096) % 16;
}

export function keyExperiment(key: number): number {
  return Math.floor(key / 65536);
}

/** Strategy 7, widget 511: the key that stands for every key a full table could not add. */
export const OVERFLOW_KEY = packKey(7, 511, 0, 0);

const KEY_SPACE = 2 ** 32;

export interface DayCellsSnapshot {
  /** day × 2^32 + key of each cell (Float64Array bytes), in row order. */
  cells: Uint8Array;
  /** The counters, FIELDS per cell in the same order (Float64Array bytes). */
  rows: Uint8Array;
}

export interface DayCellsBounds {
  maxDays: number;
  maxCells: number;
  /** Where a day's new keys count once the table holds maxCells cells. */
  overflowKey: number;
  /** When full, drop the oldest day (if older than the event's) before counting in the overflow cell. */
  dropOldestWhenFull: boolean;
}

const KEY_BOUNDS: DayCellsBounds = { maxDays: MAX_DAYS, maxCells: MAX_CELLS, overflowKey: OVERFLOW_KEY, dropOldestWhenFull: false };

export class DayCells {
  /** day × 2^32 + key → row. */
  readonly #rowOf = new Map<number, number>();
  /** Each kept day's cells as (cell key, row) pairs, to read a day without lookups and to drop it whole. */
  readonly #days = new Map<number, number[]>();
  #rows = new Float64Array(64 * FIELDS);
  /** Rows of dropped days, reused before the table grows. */
  readonly #free: number[] = [];
  #used = 0;
  #drops = 0;

  constructor(readonly bounds: DayCellsBounds = KEY_BOUNDS) {}

  get cellCount(): number {
    return this.#rowOf.size;
  }

  get dayCount(): number {
    return this.#days.size;
  }

  /** Counts dropped days: a row remembered from before a drop may have been reused since. */
  get drops(): number {
    return this.#drops;
  }

  /** The oldest kept day; undefined when empty. */
  get oldestDay(): number | undefined {
    let oldest: number | undefined;
    for (const day of this.#days.keys()) if (oldest === undefined || day < oldest) oldest = day;
    return oldest;
  }

  /** The row index (× FIELDS) of the cell (day, key), created if new; -1 when the day is not kept. */
  row(day: number, key: number): number {
    const cellKey = day * KEY_SPACE + key;
    const row = this.#rowOf.get(cellKey);
    if (row !== undefined) return row;
    const { maxDays, maxCells, overflowKey, dropOldestWhenFull } = this.bounds;
    let cells = this.#days.get(day);
    if (cells === undefined) {
      if (this.#days.size >= maxDays && !this.#dropOldestBefore(day)) return -1;
      this.#days.set(day, (cells = []));
    }
    if (this.#rowOf.size >= maxCells && key !== overflowKey) {
      // dropOldestBefore never drops `day` itself: its cells array stays live.
      if (!dropOldestWhenFull || !this.#dropOldestBefore(day, true)) return this.row(day, overflowKey);
    }
    return this.#add(cellKey, cells);
  }

  /** Adds `amount` to one counter of the cell (day, key). */
  add(day: number, key: number, field: number, amount: number): void {
    const row = this.row(day, key);
    if (row >= 0) this.#rows[row * FIELDS + field]! += amount;
  }

  /**
   * Counts one of the clicks of the cell (day, key) as gone on to a cart or an order (`field`:
   * CARTED_CLICKS or CONVERTED_CLICKS): in that cell where it is kept, else in the day's overflow
   * cell (where a full table counted the click). It never creates a cell (a dropped day's clicks are
   * gone), and never counts past the cell's clicks, whatever the bounds did to it.
   */
  addClickOutcome(day: number, key: number, field: number): void {
    const row = this.#rowOf.get(day * KEY_SPACE + key) ?? this.#rowOf.get(day * KEY_SPACE + this.bounds.overflowKey);
    if (row === undefined) return;
    const at = row * FIELDS;
    if (this.#rows[at + field]! < this.#rows[at + CLICKS]!) this.#rows[at + field]! += 1;
  }

  /**
   * Takes `amount` back from one counter of the cell (day, key), where it was added: that cell where
   * it is kept, else the day's overflow cell (where a full table counted it). Never creates a cell
   * (a dropped day's counts are gone) and never goes below 0.
   */
  takeBack(day: number, key: number, field: number, amount: number): void {
    const row = this.#rowOf.get(day * KEY_SPACE + key) ?? this.#rowOf.get(day * KEY_SPACE + this.bounds.overflowKey);
    if (row === undefined) return;
    const at = row * FIELDS + field;
    this.#rows[at] = Math.max(0, this.#rows[at]! - amount);
  }

  /** The counters (live view: read them before the next write). */
  get rows(): Float64Array {
    return this.#rows;
  }

  /** Calls `visit` with each cell of the days from `fromDay` through `toDay`: its day, key and row. */
  forEach(fromDay: number, toDay: number, visit: (day: number, key: number, row: number) => void): void {
    for (const [day, cells] of this.#days) {
      if (day < fromDay || day > toDay) continue;
      const base = day * KEY_SPACE;
      for (let i = 0; i < cells.length; i += 2) visit(day, cells[i]! - base, cells[i + 1]!);
    }
  }

  snapshot(): DayCellsSnapshot {
    const cells = new Float64Array(this.#rowOf.size);
    const rows = new Float64Array(this.#rowOf.size * FIELDS);
    let i = 0;
    for (const [cellKey, row] of this.#rowOf) {
      cells[i] = cellKey;
      rows.set(this.#rows.subarray(row * FIELDS, row * FIELDS + FIELDS), i * FIELDS);
      i++;
    }
    return { cells: bytesOf(cells), rows: bytesOf(rows) };
  }

  restore(snapshot: DayCellsSnapshot): void {
    if (this.#rowOf.size > 0) throw new Error('restore needs an empty table');
    const cells = fromBytes(Float64Array, snapshot.cells);
    const rows = fromBytes(Float64Array, snapshot.rows);
    const fields = [FIELDS, ...OLDER_FIELDS].find((n) => rows.length === cells.length * n);
    if (fields === undefined) throw new Error('day cells snapshot: rows do not match cells');
    for (let i = 0; i < cells.length; i++) {
      const cellKey = cells[i]!;
      const day = Math.floor(cellKey / KEY_SPACE);
      let dayCells = this.#days.get(day);
      if (dayCells === undefined) this.#days.set(day, (dayCells = []));
      const row = this.#add(cellKey, dayCells);
      this.#rows.set(rows.subarray(i * fields, i * fields + fields), row * FIELDS);
    }
  }

  #add(cellKey: number, dayCells: number[]): number {
    let row = this.#free.pop();
    if (row === undefined) {
      row = this.#used++;
      this.#rows = grownTo(this.#rows, this.#used * FIELDS);
    }
    this.#rowOf.set(cellKey, row);
    dayCells.push(cellKey, row);
    return row;
  }

  /**
   * Drops the oldest day when it is older than `day` (or, when `day` is already kept, strictly
   * older); false when `day` itself would be the oldest.
   */
  #dropOldestBefore(day: number, dayKept = false): boolean {
    let oldest = Infinity;
    for (const kept of this.#days.keys()) if (kept < oldest) oldest = kept;
    if (dayKept ? oldest >= day : oldest > day) return false;
    const cells = this.#days.get(oldest)!;
    for (let i = 0; i < cells.length; i += 2) {
      const row = cells[i + 1]!;
      this.#rowOf.delete(cells[i]!);
      this.#rows.fill(0, row * FIELDS, row * FIELDS + FIELDS);
      this.#free.push(row);
    }
    this.#days.delete(oldest);
    this.#drops++;
    return true;
  }
}
