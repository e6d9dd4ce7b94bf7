// The seed and run counts of a fuzz file: one seed per run of the file, chosen up front and logged
// (FUZZ_SEED=<n> replays it, FUZZ_PATH=<path> goes straight to a printed counterexample), and bounded
// runs (FUZZ_SCALE=<k> multiplies them for a longer hunt).
import type fc from 'fast-check';

function seedFromEnv(): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === undefined || raw === '') return Math.floor(Math.random() * 0x7fffffff);
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got "${raw}"`);
  return seed;
}

export const FUZZ_SEED = seedFromEnv();

const SCALE = Number(process.env.FUZZ_SCALE ?? '1') || 1;

/** Written straight to stderr as the file loads: it is there even if the worker dies mid-run. */
export function logSeed(file: string): void {
  process.stderr.write(`[fuzz] ${file}: FUZZ_SEED=${FUZZ_SEED} (replay with FUZZ_SEED=${FUZZ_SEED} npx vitest run ${file})\n`);
}

/**
 * fast-check parameters: the file's seed, `runs` × FUZZ_SCALE runs, and a time limit per run so a
 * hang fails with its counterexample instead of the test's timeout. A failure prints the seed, the
 * path to replay the shrunk case, and the counterexample.
 */
export function fuzzParams<T>(runs: number, runTimeoutMs = 15_000): fc.Parameters<T> {
  // FUZZ_PATH (with -t naming the one property) replays the shrunk counterexample fast-check printed.
  const path = process.env.FUZZ_PATH;
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(runs * SCALE)), timeout: runTimeoutMs, ...(path ? { path, endOnFailure: true } : {}) };
}

/** Counts of what the fuzzed server answered, logged at the end of a file: shows what the inputs reached. */
export class Tally {
  readonly #counts = new Map<string, number>();

  add(key: string): void {
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  toString(): string {
    return [...this.#counts].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${key} ×${count}`).join(', ');
  }
}
