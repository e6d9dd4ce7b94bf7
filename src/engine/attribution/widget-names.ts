// The widget part of attribution keys: which name each widget index stands for. The merchant's
// registered widgets (PUT /api/shop/widgets, a shop change in the log) are named for good. Any
// other widgetId comes from a storefront, where anyone holding the public key can invent one: per
// UTC day only the first STOREFRONT_WIDGETS_PER_DAY of them are named, in that day's own indexes,
// and the rest of the day counts as (other). Invented ids can take one day's storefront names,
// never a registered widget's, another day's, or any for good.
import { MAX_DAYS } from './day-cells.js';

export const NO_WIDGET = 0;
export const OTHER_WIDGET = 1;
export const WIDGET_NAMES = ['(none)', '(other)'] as const;
/** Widgets a shop may register (PUT /api/shop/widgets refuses more). */
export const MAX_REGISTERED_WIDGETS = 64;
/**
 * Names kept for good before registration existed: whatever the storefront sent first, at most this
 * many (they stay in snapshots of that time and still name their old counts).
 */
export const MAX_LEGACY_WIDGETS = 256;
/** Unregistered widgetIds named per UTC day; the day's others count as (other). */
export const STOREFRONT_WIDGETS_PER_DAY = 20;
/** Indexes from here on are a day's storefront names (the key holds 512 widget indexes: day-cells.ts). */
const FIRST_DAY_INDEX = WIDGET_NAMES.length + MAX_LEGACY_WIDGETS + MAX_REGISTERED_WIDGETS;

export interface WidgetNamesSnapshot {
  /** Names kept for good, by index from 2 on. */
  widgets: string[];
  /** Absent in snapshots from before registration. */
  registeredWidgets?: string[];
  /** Each kept day's storefront names, in index order; absent before they were per day. */
  dayWidgets?: { day: number; names: string[] }[];
}

export class WidgetNames {
  readonly #names: string[] = [...WIDGET_NAMES];
  readonly #indexOf = new Map<string, number>();
  #registered: ReadonlySet<string> = new Set();
  /** Day → its storefront names; at most MAX_DAYS days, the oldest dropped first. */
  readonly #days = new Map<number, string[]>();

  /** Replaces the registered widgets (a shop change: every process applies it at the same log position). */
  register(widgetIds: readonly string[]): void {
    this.#registered = new Set(widgetIds.slice(0, MAX_REGISTERED_WIDGETS));
  }

  get registered(): readonly string[] {
    return [...this.#registered];
  }

  isRegistered(name: string): boolean {
    return this.#registered.has(name);
  }

  /** The index of an event's widget on `day`. */
  indexOf(widgetId: string | undefined, day: number): number {
    if (widgetId === undefined) return NO_WIDGET;
    if (this.#registered.has(widgetId)) {
      const index = this.#named(widgetId, FIRST_DAY_INDEX);
      if (index >= 0) return index;
    }
    return this.#daySlot(widgetId, day);
  }

  /**
   * The index on `day` of the widget that was `index` on `fromDay` (a remembered key counted on a
   * later day): a storefront name is looked up by name on `day`, taking one of its names if new.
   */
  onDay(index: number, fromDay: number, day: number): number {
    if (index < FIRST_DAY_INDEX || fromDay === day) return index;
    const name = this.#days.get(fromDay)?.[index - FIRST_DAY_INDEX];
    return name === undefined ? OTHER_WIDGET : this.indexOf(name, day);
  }

  /** The name of `index` on `day`. */
  nameOf(day: number, index: number): string {
    if (index < FIRST_DAY_INDEX) return this.#names[index] ?? WIDGET_NAMES[OTHER_WIDGET];
    return this.#days.get(day)?.[index - FIRST_DAY_INDEX] ?? WIDGET_NAMES[OTHER_WIDGET];
  }

  snapshot(): WidgetNamesSnapshot {
    return {
      widgets: this.#names.slice(WIDGET_NAMES.length),
      registeredWidgets: [...this.#registered],
      dayWidgets: [...this.#days].map(([day, names]) => ({ day, names: [...names] })),
    };
  }

  restore(snapshot: WidgetNamesSnapshot): void {
    // Every restored name keeps its index: the cells it names were counted under it.
    for (const name of snapshot.widgets) this.#named(name, FIRST_DAY_INDEX);
    this.register(snapshot.registeredWidgets ?? []);
    for (const { day, names } of snapshot.dayWidgets ?? []) this.#days.set(day, names.slice(0, STOREFRONT_WIDGETS_PER_DAY));
  }

  /** The index of a name kept for good, added if there is room below `end`; -1 when there is none. */
  #named(name: string, end: number): number {
    let index = this.#indexOf.get(name);
    if (index !== undefined) return index;
    if (this.#names.length >= end) return -1;
    this.#indexOf.set(name, (index = this.#names.length));
    this.#names.push(name);
    return index;
  }

  #daySlot(widgetId: string, day: number): number {
    let names = this.#days.get(day);
    if (names === undefined) {
      if (this.#days.size >= MAX_DAYS && !this.#dropOldestBefore(day)) return OTHER_WIDGET;
      this.#days.set(day, (names = []));
    }
    // At most STOREFRONT_WIDGETS_PER_DAY names: a scan is cheaper than a Map per day.
    const at = names.indexOf(widgetId);
    if (at >= 0) return FIRST_DAY_INDEX + at;
    if (names.length >= STOREFRONT_WIDGETS_PER_DAY) return OTHER_WIDGET;
    names.push(widgetId);
    return FIRST_DAY_INDEX + names.length - 1;
  }

  /** Drops the oldest day's names when it is older than `day`; false when `day` would be the oldest. */
  #dropOldestBefore(day: number): boolean {
    let oldest = Infinity;
    for (const kept of this.#days.keys()) if (kept < oldest) oldest = kept;
    if (oldest > day) return false;
    this.#days.delete(oldest);
    return true;
  }
}
