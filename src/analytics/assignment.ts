// Sticky assignment of shoppers to experiment variants: a hash of (experiment number, shopper id)
// mapped onto the variants' cumulative shares. No table: the same shopper gets the same variant in
// every process and after every restart, and a new shopper costs nothing to remember.

/** FNV-1a over `experiment:shopper`, then murmur3's finalizer (FNV's low bits alone mix poorly), as a fraction in [0, 1). */
export function assignmentPoint(experiment: number, shopperId: string): number {
  let h = 0x811c9dc5;
  const key = experiment + ':' + shopperId;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** The variant (1-based) of `shopperId`, given the variants' shares in percent (summing to 100). */
export function assignVariant(experiment: number, shopperId: string, shares: readonly number[]): number {
  const point = assignmentPoint(experiment, shopperId) * 100;
  let upTo = 0;
  for (let v = 0; v < shares.length; v++) {
    upTo += shares[v]!;
    if (point < upTo) return v + 1;
  }
  // Rounding left the sum a hair under 100: the last variant with a share takes the rest.
  for (let v = shares.length - 1; v >= 0; v--) if (shares[v]! > 0) return v + 1;
  return 1;
}
