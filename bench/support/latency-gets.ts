// GET latency from one client, two ways: one request after another on a keep-alive connection (a
// request's own cost, no queueing behind others), or at a fixed rate whatever the answers take
// (shoppers arriving on their own: a request that lands during a stall waits it out, so the
// percentiles see stalls in proportion to their length), optionally split into alternating quiet
// and busy windows. node:http with a keep-alive agent.
import http from 'node:http';
import { Latencies } from './latency.js';

export interface GetLatency {
  requests: number;
  /** Answers outside 2xx, and requests that failed. */
  failures: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function get(agent: http.Agent, url: URL, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ agent, host: url.hostname, port: url.port, path, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
}

function summary(latencies: Latencies, failures: number, seconds: number): GetLatency {
  const s = latencies.summary();
  return { requests: s.count, failures, seconds, p50Ms: s.p50 / 1000, p99Ms: s.p99 / 1000, maxMs: s.max / 1000 };
}

/** The path of the i-th request of a run. */
export type PathOf = (i: number) => string;

/** Cycles through `paths`. */
export const cycling = (paths: readonly string[]): PathOf => (i) => paths[i % paths.length]!;

/** One GET after another for `seconds` on one keep-alive connection. */
export async function sequentialGets(base: string, pathOf: PathOf, headers: Record<string, string>, seconds: number): Promise<GetLatency> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = new Latencies(4096);
  let failures = 0;
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  try {
    for (let i = 0; performance.now() < stopAt; i++) {
      const sent = performance.now();
      const status = await get(agent, url, pathOf(i), headers).catch(() => 0);
      latencies.add(performance.now() - sent);
      if (status < 200 || status > 299) failures++;
    }
  } finally {
    agent.destroy();
  }
  return summary(latencies, failures, (performance.now() - started) / 1000);
}

/**
 * Alternating windows of `ms` from `epoch`: even ones quiet, odd ones busy. Two loads sharing them
 * compare a quiet and a busy server under the same drift and the same neighbours on the machine.
 */
export interface Windows {
  readonly epoch: number;
  readonly ms: number;
}

export function busyAt(windows: Windows, at: number): boolean {
  return Math.floor((at - windows.epoch) / windows.ms) % 2 === 1;
}

export interface PacedOptions {
  /** Most GETs waiting at once: past that a send is skipped and counted as a failure (64). */
  maxInFlight?: number;
  /** How long after the last send GETs still waiting are waited for (10 s). */
  graceSeconds?: number;
  /** Sends only in the busy windows. */
  onlyBusyIn?: Windows;
}

/** One paced load's GETs: when each was due, how long it took (NaN: not sent) and whether it failed. */
interface PacedSamples {
  due: number[];
  ms: number[];
  failed: boolean[];
  seconds: number;
}

async function paced(base: string, pathOf: PathOf, headers: Record<string, string>, rate: number, seconds: number, { maxInFlight = 64, graceSeconds = 10, onlyBusyIn }: PacedOptions): Promise<PacedSamples> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
  const samples: PacedSamples = { due: [], ms: [], failed: [], seconds: 0 };
  const waiting = new Map<number, number>();
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.round(rate * seconds);
  try {
    for (let i = 0; i < total; i++) {
      // The i-th request's own time: a late timer does not shift the ones after it.
      const due = started + (i * 1000) / rate;
      // Whole milliseconds, rounded up: a timer rounds its delay down and would fire early.
      const wait = Math.ceil(due - performance.now());
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (onlyBusyIn !== undefined && !busyAt(onlyBusyIn, due)) continue;
      const sample = samples.due.push(due) - 1;
      samples.ms.push(NaN);
      samples.failed.push(false);
      if (waiting.size >= maxInFlight) {
        samples.failed[sample] = true;
        continue;
      }
      waiting.set(sample, due);
      pending.push(
        get(agent, url, pathOf(i), headers)
          .then(
            (status) => {
              if (status < 200 || status > 299) samples.failed[sample] = true;
            },
            () => {
              samples.failed[sample] = true;
            },
          )
          .finally(() => {
            if (!waiting.delete(sample)) return; // given up on already
            samples.ms[sample] = performance.now() - due;
          }),
      );
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceSeconds * 1000)));
    await Promise.race([Promise.all(pending), deadline]);
    clearTimeout(timer);
    const givenUp = performance.now();
    for (const [sample, due] of waiting) {
      samples.ms[sample] = givenUp - due;
      samples.failed[sample] = true;
    }
    waiting.clear();
  } finally {
    agent.destroy();
  }
  samples.seconds = (performance.now() - started) / 1000;
  return samples;
}

function summaryOf(samples: PacedSamples, keep: (due: number) => boolean): GetLatency {
  const latencies = new Latencies(samples.due.length);
  let failures = 0;
  for (let i = 0; i < samples.due.length; i++) {
    if (!keep(samples.due[i]!)) continue;
    if (samples.failed[i]) failures++;
    if (samples.ms[i] === samples.ms[i]) latencies.add(samples.ms[i]!);
  }
  return summary(latencies, failures, samples.seconds);
}

/**
 * GETs sent `rate` times a second for `seconds`, whatever the answers take; resolves once the
 * last has answered, or `graceSeconds` after the last was sent: each one still waiting then
 * counts as a failure that took until that moment (its latency is at least that).
 */
export async function pacedGets(base: string, pathOf: PathOf, headers: Record<string, string>, rate: number, seconds: number, options: PacedOptions = {}): Promise<GetLatency> {
  return summaryOf(await paced(base, pathOf, headers, rate, seconds, options), () => true);
}

/** pacedGets, its latencies split by the window each GET was due in. */
export async function pacedGetsByWindow(base: string, pathOf: PathOf, headers: Record<string, string>, rate: number, seconds: number, windows: Windows): Promise<{ quiet: GetLatency; busy: GetLatency }> {
  const samples = await paced(base, pathOf, headers, rate, seconds, {});
  return { quiet: summaryOf(samples, (due) => !busyAt(windows, due)), busy: summaryOf(samples, (due) => busyAt(windows, due)) };
}
