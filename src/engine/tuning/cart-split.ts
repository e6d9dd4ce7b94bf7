// The cart tuner's validation split, from the fit's histories alone: a shopper's orders are the
// products they bought once at one time (entries with an exact purchase time, EntryFacts.once, and
// the same recency), as the recency-off split reads them. Whole orders of three products or more
// are held out (the newest of each sampled shopper; with time playing no part, every 5th), each
// shuffled and cut as the black-box basket-completion task cuts it: its first min(5, ⌊m/2⌋)
// products are the cart, the rest are to be found. The held-out order leaves its shopper's row, so
// neither EASE (fitted on `train`) nor the basket stand-in (the training `orders`) has seen it.
// Pure: works on the typed arrays fit-input.ts reads from the engine.
import type { Histories } from '../ease/solver.js';
import type { TuningInput } from './validation-split.js';

export interface CartSplitOptions {
  /** newest: each sampled shopper's newest order, among the shop's newest `share` of orders; orders: every (1/share)-th order. */
  held: 'newest' | 'orders';
  share: number;
  /** Held-out orders at most (every k-th eligible taken). */
  maxCarts: number;
}

export interface CartSplit {
  /** Every shopper's row without its held-out order: what EASE is fitted on. */
  train: Histories;
  /** The training orders (two products or more), one row each: what the basket stand-in counts. */
  orders: Histories;
  /** Held-out order c: its cart is items[starts[c] .. starts[c] + cartSizes[c]), the rest of it up to starts[c + 1] is relevant. */
  carts: { starts: Int32Array; items: Int32Array; cartSizes: Int32Array };
}

/** Products in an order held out: fewer leave nothing to find beside a cart of one. */
const MIN_ORDER = 3;
/** Products in a cart at most (the harness's basket-completion task sends up to 5). */
const MAX_CART = 5;

/** A deterministic shuffle (mulberry32 seeded by the order's row): the same input, the same carts. */
function shuffle(items: number[], seed: number): number[] {
  let state = seed | 0;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** A row's orders: its once-bought entries grouped by purchase time, oldest first (entry indices). */
function ordersOf(from: number, to: number, once: Uint8Array, recency: Float32Array): number[][] {
  const byTime = new Map<number, number[]>();
  for (let k = from; k < to; k++) {
    if (once[k] !== 1) continue;
    let entries = byTime.get(recency[k]!);
    if (entries === undefined) byTime.set(recency[k]!, (entries = []));
    entries.push(k);
  }
  return [...byTime].sort((a, b) => a[0] - b[0]).map(([, entries]) => entries);
}

export function cartSplit(histories: Histories, input: TuningInput, options: CartSplitOptions): CartSplit {
  const { starts, items } = histories;
  const { once, recency } = input.entries;
  const rows = starts.length - 1;
  const period = Math.max(1, Math.round(1 / options.share));
  // Each row's orders, and the newest recency at or above which the newest share of large orders lie.
  const rowOrders: number[][][] = [];
  const newest: number[] = [];
  for (let s = 0; s < rows; s++) {
    const orders = ordersOf(starts[s]!, starts[s + 1]!, once, recency);
    rowOrders.push(orders);
    for (const order of orders) if (order.length >= MIN_ORDER) newest.push(recency[order[0]!]!);
  }
  newest.sort((a, b) => b - a);
  const threshold = newest.length === 0 ? Infinity : newest[Math.min(newest.length - 1, Math.max(0, Math.ceil(newest.length * options.share) - 1))]!;
  /** The orders of row s to hold out (indices into rowOrders[s]), before sampling. */
  const heldOf = (s: number): number[] => {
    const orders = rowOrders[s]!;
    const size = starts[s + 1]! - starts[s]!;
    const eligible = (o: number) => orders[o]!.length >= MIN_ORDER && orders[o]!.length < size;
    if (options.held === 'newest') {
      const last = orders.length - 1;
      return last >= 0 && eligible(last) && recency[orders[last]![0]!]! >= threshold ? [last] : [];
    }
    return orders.map((_, o) => o).filter((o) => eligible(o) && (o + s) % period === 0);
  };
  let eligible = 0;
  for (let s = 0; s < rows; s++) eligible += heldOf(s).length;
  const stride = Math.max(1, Math.ceil(eligible / options.maxCarts));

  const trainStarts = [0];
  const trainItems: number[] = [];
  const orderStarts = [0];
  const orderItems: number[] = [];
  const cartStarts = [0];
  const cartItems: number[] = [];
  const cartSizes: number[] = [];
  const heldEntry = new Uint8Array(items.length);
  let seen = 0;
  for (let s = 0; s < rows; s++) {
    const orders = rowOrders[s]!;
    const held = new Set(heldOf(s).filter(() => seen++ % stride === 0 && cartSizes.length < options.maxCarts));
    for (const o of held) {
      const order = shuffle(orders[o]!.map((k) => items[k]!), s * 31 + o);
      for (const k of orders[o]!) heldEntry[k] = 1;
      cartItems.push(...order);
      cartStarts.push(cartItems.length);
      cartSizes.push(Math.min(MAX_CART, Math.floor(order.length / 2)));
    }
    orders.forEach((order, o) => {
      if (held.has(o) || order.length < 2) return;
      for (const k of order) orderItems.push(items[k]!);
      orderStarts.push(orderItems.length);
    });
    for (let k = starts[s]!; k < starts[s + 1]!; k++) if (heldEntry[k] === 0) trainItems.push(items[k]!);
    trainStarts.push(trainItems.length);
  }
  const rowsOf = (rowStarts: number[], rowItems: number[]): Histories => ({ starts: Int32Array.from(rowStarts), items: Int32Array.from(rowItems), values: new Float32Array(rowItems.length).fill(1) });
  return {
    train: rowsOf(trainStarts, trainItems),
    orders: rowsOf(orderStarts, orderItems),
    carts: { starts: Int32Array.from(cartStarts), items: Int32Array.from(cartItems), cartSizes: Int32Array.from(cartSizes) },
  };
}
