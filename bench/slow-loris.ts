// Slow-loris: many connections that send a request's headers one byte a second, never finishing,
// while wrk measures GET /api/recommendations (the demo store's mixed workload). Reports wrk's
// p99 and req/s quiet and under the attack, in the same run, and what became of the slow sockets
// (the server closes a request that does not finish its headers in time: each one reconnects, as
// an attacker would, so the pressure stays at BENCH_LORIS_CONNECTIONS throughout).
//   npm run bench:slow-loris      (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_LORIS_CONNECTIONS)
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildServer } from './support/child-server.js';
import { mixedPaths } from './support/http-workload.js';
import type { LoadResult } from './support/load-result.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { benchSettings, integerSetting } from './support/settings.js';
import type { ServiceInfo } from './support/workload-sample.js';
import { runWrk, wrkAvailable } from './support/wrk-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const lorisCount = integerSetting('BENCH_LORIS_CONNECTIONS', 1000, 1, 10_000);
const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Slow clients: each writes a request line, then one header byte per second, forever. */
class Loris {
  /** Sockets the server closed (then reopened), and how long each had lived. */
  closedByServer = 0;
  readonly lifetimesMs: number[] = [];
  readonly #sockets = new Set<net.Socket>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    readonly port: number,
    readonly count: number,
  ) {}

  start(): void {
    for (let i = 0; i < this.count; i++) this.#open();
    this.#timer = setInterval(() => {
      for (const socket of this.#sockets) if (socket.writable) socket.write('a');
    }, 1000);
  }

  get open(): number {
    return this.#sockets.size;
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    for (const socket of this.#sockets) socket.destroy();
  }

  #open(): void {
    const opened = performance.now();
    const socket = net.connect(this.port, '127.0.0.1', () => socket.write('GET /api/recommendations?strategy=trending HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    this.#sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      this.#sockets.delete(socket);
      if (this.#stopped) return;
      this.closedByServer++;
      this.lifetimesMs.push(performance.now() - opened);
      this.#open();
    });
  }
}

function row(label: string, r: LoadResult): string {
  return `${label.padEnd(22)} ${r.requestsPerSec.toFixed(0).padStart(8)} req/s  p50 ${r.latencyP50Ms.toFixed(2)} ms  p99 ${r.latencyP99Ms.toFixed(2)} ms  non2xx ${r.non2xx}  errors ${r.errors}`;
}

async function main(): Promise<void> {
  if (!wrkAvailable()) throw new Error('wrk is needed (apt-get install wrk)');
  pinSelfToLoadCpu(pinning);
  progress(`pinning: ${pinning.note}`);
  const service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), {}, pinning);
  try {
    const info = service.info as unknown as ServiceInfo;
    const headers = { authorization: `Bearer ${info.publicKey}` };
    const paths = mixedPaths(info.sample);
    const wrk = (seconds: number) => runWrk({ url: service.url, connections: settings.connections, seconds, headers, paths }, pinning);
    await wrk(settings.warmupSeconds || 1);
    const quiet = await wrk(settings.seconds);
    progress(row('quiet', quiet));

    const loris = new Loris(service.port, lorisCount);
    loris.start();
    await new Promise((resolve) => setTimeout(resolve, 3000)); // every slow socket connected and dripping
    const attacked = await wrk(settings.seconds);
    progress(row(`${lorisCount} slow sockets`, attacked));
    const openAtEnd = loris.open;
    loris.stop();
    const after = await wrk(settings.seconds);
    progress(row('after', after));

    const lifetimes = loris.lifetimesMs.sort((a, b) => a - b);
    const median = lifetimes.length === 0 ? undefined : lifetimes[Math.floor(lifetimes.length / 2)]!;
    console.log(
      [
        `slow-loris (${lorisCount} connections, 1 header byte/s each; wrk -c${settings.connections}, ${settings.seconds} s per run; ${pinning.note})`,
        row('GET quiet', quiet),
        row('GET under slow-loris', attacked),
        row('GET after', after),
        `p99 under attack / quiet: ${(attacked.latencyP99Ms / quiet.latencyP99Ms).toFixed(2)}   req/s under attack / quiet: ${(attacked.requestsPerSec / quiet.requestsPerSec).toFixed(2)}`,
        `slow sockets: ${openAtEnd} open at the end; the server closed ${loris.closedByServer}` +
          (median === undefined ? ' (none timed out during the run)' : `, after ${(median / 1000).toFixed(1)} s (median)`),
      ].join('\n'),
    );
  } finally {
    await service.stop();
  }
}

await main();
