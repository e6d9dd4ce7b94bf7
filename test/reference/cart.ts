// Reference for bought-together over a cart, written plainly from the model's definition (docs/models.md,
// "Carts"): per part, a Map summed over the cart's products straight from the engine's rows (basket
// pairs scored by pairScore, each row over the middle of its product's basket-count level; EASE's
// fit rows; the first CART_CONTENT_NEIGHBORS content neighbours),
// each part relative to its best candidate outside the cart, weighted and added; a candidate whose
// weighted parts are divided by its best-seller discount, n^β with n the middle of its basket
// count's level (2^((level + 0.5) / 2), the level floor(2·log2(count)), 0 below 1). No score boards,
// no scratch, no shared code with the engine's cart producer.
import type { CartBlend } from '../../src/engine/ease/ease-blend.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { pairScore } from '../../src/engine/strategies/bought-together.js';
import { CART_CONTENT_NEIGHBORS } from '../../src/engine/strategies/cart-together.js';

export interface ReferenceCartScore {
  /** The weighted parts over the best-seller discount. */
  score: number;
  /** The weighted parts alone. */
  parts: number;
  /** It has a basket pair with a cart product. */
  paired: boolean;
  /** EASE weighs it above 0 (and EASE counts in the blend). */
  eased: boolean;
}

function add(part: Map<number, number>, id: number, value: number): void {
  part.set(id, (part.get(id) ?? 0) + value);
}

/** floor(2·log2(count)), 0 below 1. */
function level(count: number): number {
  return count < 1 ? 0 : Math.floor(2 * Math.log2(count));
}

/** The middle of a count's level: 2^((level + 0.5) / 2). */
function levelMiddle(count: number): number {
  return 2 ** ((level(count) + 0.5) / 2);
}

function pairPart(engine: ShopEngine, cart: readonly number[], now: number): Map<number, number> {
  const part = new Map<number, number>();
  const baskets = engine.baskets;
  const { pairFloor, pairPopularityExponent } = engine.config;
  const scale = engine.timePriors ? baskets.scaleAt(now) : 1;
  for (const product of cart) {
    const row: [number, number][] = [];
    const pairs = baskets.pairs;
    for (let k = 0; k < pairs.size(product); k++) {
      const id = pairs.ids[pairs.start(product) + k]!;
      const total = pairs.weights[pairs.totalStart(product) + k]!;
      const decayed = engine.timePriors ? pairs.weights[pairs.weightStart(product) + k]! * scale : total;
      row.push([id, pairScore(decayed, total, baskets.groupsOf(id), pairFloor, pairPopularityExponent)]);
    }
    for (const [id, s] of row) add(part, id, s / levelMiddle(baskets.groupsOf(product)));
  }
  return part;
}

function easePart(engine: ShopEngine, cart: readonly number[]): Map<number, number> {
  const part = new Map<number, number>();
  const fit = engine.ease.fit;
  if (fit === undefined) return part;
  for (const product of cart) {
    const e = [...fit.items].indexOf(product);
    if (e < 0) continue;
    for (let r = 0; r < fit.rows.sizes[e]!; r++) add(part, fit.items[fit.rows.ids[e * fit.rows.k + r]!]!, fit.rows.weights[e * fit.rows.k + r]!);
  }
  return part;
}

function contentPart(engine: ShopEngine, cart: readonly number[]): Map<number, number> {
  const part = new Map<number, number>();
  for (const product of cart) {
    const count = Math.min(CART_CONTENT_NEIGHBORS, engine.content.neighbors(product, engine.compareIds));
    const start = engine.content.start(product);
    for (let k = 0; k < count; k++) add(part, engine.content.neighborIds[start + k]!, engine.content.neighborScores[start + k]!);
  }
  return part;
}

/** Every candidate's cart score (before any is left out for being blocked or unavailable); the cart's products are not candidates. */
export function referenceCartScores(engine: ShopEngine, cart: readonly number[], now: number, blend: CartBlend, exponent: number): Map<number, ReferenceCartScore> {
  const parts: [Map<number, number>, number][] = [
    [pairPart(engine, cart, now), blend.pairWeight],
    [blend.easeWeight > 0 ? easePart(engine, cart) : new Map(), blend.easeWeight],
    [blend.contentWeight > 0 ? contentPart(engine, cart) : new Map(), blend.contentWeight],
  ];
  const scores = new Map<number, ReferenceCartScore>();
  for (const [part, weight] of parts) {
    const best = Math.max(0, ...[...part].filter(([id]) => !cart.includes(id)).map(([, s]) => s));
    for (const [id, s] of part) {
      if (cart.includes(id)) continue;
      const entry = scores.get(id) ?? { score: 0, parts: 0, paired: false, eased: false };
      entry.parts += best > 0 ? (s * weight) / best : 0;
      scores.set(id, entry);
    }
  }
  const [pairs, ease] = parts;
  for (const [id, entry] of scores) {
    entry.score = entry.parts / levelMiddle(engine.baskets.groupsOf(id)) ** exponent;
    entry.paired = pairs[0].has(id);
    entry.eased = (ease[0].get(id) ?? 0) > 0 && ease[1] > 0 && Math.max(0, ...[...ease[0]].filter(([j]) => !cart.includes(j)).map(([, s]) => s)) > 0;
  }
  return scores;
}
