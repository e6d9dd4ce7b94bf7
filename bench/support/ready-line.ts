// The one line a benchmark server prints on stdout once it listens: `{"ready":true,"port":…,…}`.
// Children also exit when their parent goes away (stdin closes), so no server outlives a run.
import { createRequire } from 'node:module';

export interface ReadyLine {
  ready: true;
  port: number;
  [field: string]: unknown;
}

export function announceReady(info: Omit<ReadyLine, 'ready'>): void {
  process.stdout.write(JSON.stringify({ ready: true, ...info }) + '\n');
}

/** Throws unless uWebSockets.js loaded its native binary (the package silently falls back to JS). */
export function assertNativeUws(): void {
  const cache = createRequire(import.meta.url).cache;
  const native = Object.keys(cache).some((file) => /uws_[^/]*\.node$/.test(file));
  if (!native) throw new Error('uWebSockets.js is not using its native binary (JS fallback): benchmark numbers would be meaningless');
}

/** Calls `stop` on SIGTERM/SIGINT or when the parent closes our stdin, then exits. */
export function stopOnSignalOrOrphan(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    const hardExit = setTimeout(() => process.exit(1), 15_000);
    hardExit.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('stop failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();
}
