// Per-call latencies of an in-process benchmark, in µs, and their summary (p50/p99/max/mean).

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export class Latencies {
  #samples: Float64Array;
  #count = 0;

  constructor(capacity: number) {
    this.#samples = new Float64Array(Math.max(1, capacity));
  }

  get count(): number {
    return this.#count;
  }

  /** Records one call that took `ms` milliseconds (a performance.now() difference). */
  add(ms: number): void {
    if (this.#count === this.#samples.length) {
      const grown = new Float64Array(this.#samples.length * 2);
      grown.set(this.#samples);
      this.#samples = grown;
    }
    this.#samples[this.#count++] = ms * 1000;
  }

  summary(): LatencySummary {
    const sorted = this.#samples.slice(0, this.#count).sort();
    const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
    let sum = 0;
    for (const v of sorted) sum += v;
    return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.length === 0 ? 0 : sorted[sorted.length - 1]!, mean: sorted.length === 0 ? 0 : sum / sorted.length };
  }
}

/**
 * Times `call(i)` for i = 0, 1, … until `count` calls or `seconds` have passed, after `warmup`
 * untimed calls; `before(i)`, when given, runs untimed just before each timed call. Each call is
 * timed alone, so the figures include the GC pauses it ran into.
 */
export function timeCalls(count: number, seconds: number, warmup: number, call: (i: number) => void, before?: (i: number) => void): LatencySummary {
  for (let i = 0; i < warmup; i++) call(count - 1 - (i % count));
  const latencies = new Latencies(count);
  const deadline = performance.now() + seconds * 1000;
  for (let i = 0; i < count; i++) {
    before?.(i);
    const t0 = performance.now();
    call(i);
    const t1 = performance.now();
    latencies.add(t1 - t0);
    if (t1 > deadline) break;
  }
  return latencies.summary();
}
