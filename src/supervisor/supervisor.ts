// The supervisor of PAIRWISE_SERVERS server processes on one port (uWS listens with SO_REUSEPORT:
// the kernel spreads connections over them). It holds the data dir's lock, answers nothing, starts
// the first server (which seeds a new demo store) and then the others, each restoring from the
// latest snapshot and catching up from the log before it listens. It passes each server's commit
// notices to the others, restarts a server that dies (with backoff when it keeps dying), and on
// SIGTERM or SIGINT drains them all and exits 0. A server whose supervisor dies exits by itself
// (its IPC channel closes), so nothing orphaned keeps the port.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freemem } from 'node:os';
import type { Config } from '../config.js';
import type { Log } from '../observability/log.js';
import { isServerMessage, type CommittedMessage } from './messages.js';
import { MetricsRelay, type RelaySlot } from './metrics-relay.js';

/**
 * A server that dies before it was ready (or within STABLE_MS of it: a crash loop) is restarted
 * after a wait that doubles from FIRST_BACKOFF_MS up to MAX_BACKOFF_MS; one that had served for
 * longer (killed, out of memory) is restarted at once, and its wait starts over.
 */
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
const STABLE_MS = 1_000;
/** Memory left for everything else when sizing the servers: a server may grow past its restored size. */
const MEMORY_HEADROOM = 0.8;

interface Slot {
  index: number;
  child: ChildProcess | undefined;
  startedAt: number;
  /** When its current process said it was ready (undefined: not yet). */
  readyAt: number | undefined;
  backoffMs: number;
  restartTimer?: NodeJS.Timeout;
}

export interface SupervisorOptions {
  /** The server entry point (dist/src/main.js). */
  entry: string;
  log: Log;
  /** Prints the first server's banner (keys and URLs, for people). */
  banner: (text: string) => void;
  /** Releases the data dir's lock (at exit). */
  release: () => void;
}

/** Bytes of memory available for new processes: MemAvailable, or a cgroup v2 limit when lower. */
export function availableMemory(): number {
  let available = freemem();
  try {
    const line = readFileSync('/proc/meminfo', 'utf8').split('\n').find((l) => l.startsWith('MemAvailable:'));
    if (line !== undefined) available = Number(line.split(/\s+/)[1]) * 1024;
  } catch {
    // not Linux: freemem
  }
  try {
    const max = readFileSync('/sys/fs/cgroup/memory.max', 'utf8').trim();
    const current = Number(readFileSync('/sys/fs/cgroup/memory.current', 'utf8').trim());
    if (max !== 'max') available = Math.min(available, Number(max) - current);
  } catch {
    // no cgroup v2 limit
  }
  return available;
}

/** How many servers of `rssBytes` each fit in `availableBytes` beside one already running (MEMORY_HEADROOM of it used). */
export function serversThatFit(rssBytes: number, availableBytes: number): number {
  return 1 + Math.floor((availableBytes * MEMORY_HEADROOM) / Math.max(rssBytes, 1));
}

export async function supervise(config: Config, options: SupervisorOptions): Promise<void> {
  const slots: Slot[] = Array.from({ length: config.servers }, (_, index) => ({ index, child: undefined, startedAt: 0, readyAt: undefined, backoffMs: FIRST_BACKOFF_MS }));
  let stopping = false;
  let bannerPrinted = false;
  let firstReady: (rss: number) => void;
  const firstStarted = new Promise<number>((resolve) => (firstReady = resolve));

  const relaySlot = (slot: Slot): RelaySlot => ({ index: slot.index, ready: slot.readyAt === undefined ? undefined : slot.child });
  const metrics = new MetricsRelay(() => slots.map(relaySlot));

  const broadcast = (from: Slot, message: CommittedMessage) => {
    for (const slot of slots) if (slot !== from && slot.child?.connected) slot.child.send(message);
  };

  const start = (slot: Slot) => {
    slot.startedAt = Date.now();
    slot.readyAt = undefined;
    // Structured clone: metrics carry NaN (a model score with too little data), which JSON would turn into null.
    const child = fork(options.entry, [], { env: { ...process.env, PAIRWISE_SERVER_INDEX: String(slot.index) }, stdio: 'inherit', serialization: 'advanced' });
    slot.child = child;
    child.on('message', (message) => {
      if (!isServerMessage(message)) return;
      if (message.type === 'committed') broadcast(slot, message);
      else if (message.type === 'metrics-request') metrics.request(relaySlot(slot), message);
      else if (message.type === 'metrics-report') metrics.report(relaySlot(slot), message);
      else {
        slot.readyAt = Date.now();
        if (!bannerPrinted) {
          bannerPrinted = true;
          options.banner(message.banner);
        }
        if (slot.index === 0) firstReady(message.rssBytes);
        options.log(`server ${slot.index + 1} of ${config.servers} (pid ${child.pid}) ready: ${Math.round(message.rssBytes / 2 ** 20)} MB resident`, { event: 'server-ready', server: slot.index + 1, serverPid: child.pid, rssBytes: message.rssBytes });
      }
    });
    child.on('exit', (code, signal) => {
      if (slot.child === child) slot.child = undefined;
      metrics.gone(relaySlot(slot));
      if (stopping) return;
      if (slot.index === 0 && !bannerPrinted) {
        // The first start failed (a bad data dir, a port in use): the others would fail alike.
        options.log(`server 1 exited before it was ready (${signal ?? `code ${code}`}): not started`, { event: 'start-failed', level: 'error', server: 1, serverPid: child.pid, code, signal });
        void stop(1);
        return;
      }
      const ranMs = Date.now() - slot.startedAt;
      const stable = slot.readyAt !== undefined && Date.now() - slot.readyAt >= STABLE_MS;
      const wait = stable ? 0 : slot.backoffMs;
      slot.backoffMs = stable ? FIRST_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, slot.backoffMs * 2);
      options.log(`server ${slot.index + 1} (pid ${child.pid}) died (${signal ?? `code ${code}`}) after ${(ranMs / 1000).toFixed(1)} s: restarting${wait > 0 ? ` in ${(wait / 1000).toFixed(1)} s` : ''}`, {
        event: 'server-died',
        level: 'warn',
        server: slot.index + 1,
        serverPid: child.pid,
        code,
        signal,
        ranSeconds: ranMs / 1000,
        restartInSeconds: wait / 1000,
      });
      slot.restartTimer = setTimeout(() => start(slot), wait);
    });
  };

  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    for (const slot of slots) clearTimeout(slot.restartTimer);
    const exits = slots.flatMap(({ child }) => (child === undefined || child.exitCode !== null || child.signalCode !== null ? [] : [new Promise((resolve) => child.once('exit', resolve))]));
    for (const { child } of slots) child?.kill('SIGTERM');
    await Promise.all(exits);
    options.release();
    process.exit(exitCode);
  };
  const stopOn = (signal: string) => {
    options.log(`${signal}: stopping the servers`, { event: 'stop', signal });
    void stop(0);
  };
  process.once('SIGTERM', () => stopOn('SIGTERM'));
  process.once('SIGINT', () => stopOn('SIGINT'));

  start(slots[0]!);
  const rss = await firstStarted;
  // Sized against what is free now that the first server holds its share.
  const fit = serversThatFit(rss, availableMemory());
  options.log(`${config.servers} servers × ~${Math.round(rss / 2 ** 20)} MB each ≈ ${((config.servers * rss) / 2 ** 30).toFixed(2)} GB expected`, { event: 'servers-sized', servers: config.servers, rssBytes: rss, fit });
  if (config.servers > fit) {
    options.log(`not started: ${config.servers} servers of ~${Math.round(rss / 2 ** 20)} MB each do not fit in the memory available (${fit} do): set PAIRWISE_SERVERS to ${fit} or less`, { event: 'start-failed', level: 'error', servers: config.servers, fit });
    await stop(2);
    return;
  }
  for (const slot of slots.slice(1)) if (!stopping) start(slot);
}
