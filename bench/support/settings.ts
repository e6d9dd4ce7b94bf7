// Knobs every benchmark reads from the environment, bounded so a typo cannot start an hour-long run.

export interface BenchSettings {
  /** Measured seconds per run (BENCH_SECONDS, default 10). */
  seconds: number;
  /** Unmeasured seconds before the first run against each server (BENCH_WARMUP_SECONDS, default 2). */
  warmupSeconds: number;
  /** Concurrent connections of the load generator (BENCH_CONNECTIONS, default 50). */
  connections: number;
}

/** An integer knob from the environment: `fallback` when unset or empty, else it must lie in [min, max]. */
export function integerSetting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw !== '0' && raw.toLowerCase() !== 'false';
}

export function benchSettings(): BenchSettings {
  return {
    seconds: integerSetting('BENCH_SECONDS', 10, 1, 120),
    warmupSeconds: integerSetting('BENCH_WARMUP_SECONDS', 2, 0, 30),
    connections: integerSetting('BENCH_CONNECTIONS', 50, 1, 1000),
  };
}
