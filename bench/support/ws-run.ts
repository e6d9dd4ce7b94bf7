// A WebSocket load generator on the `ws` package: `connections` sockets, each sending msgpack
// `events` ops one after another (the next when the previous is acked) for `seconds`. Reports acked
// ops/s as requestsPerSec, acked events/s, and ack latency (send → acks) percentiles.
import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';
import type { LoadResult } from './load-result.js';

export interface WsRun {
  /** ws://host:port/api/stream?key=… */
  url: string;
  connections: number;
  seconds: number;
  /** Event lists cycled over; `messageId` values holding `placeholder` get a fresh id per op. */
  batches: readonly Record<string, unknown>[][];
  placeholder?: string;
}

export interface WsLoadResult extends LoadResult {
  eventsPerSec: number;
}

interface Acks {
  op: string;
  ref?: number;
  accepted?: number;
  duplicates?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function withIds(events: readonly Record<string, unknown>[], placeholder: string | undefined, id: string): Record<string, unknown>[] {
  if (placeholder === undefined) return events as Record<string, unknown>[];
  return events.map((e) => (typeof e.messageId === 'string' ? { ...e, messageId: e.messageId.replace(placeholder, id) } : e));
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

export async function runWs(run: WsRun): Promise<WsLoadResult> {
  const sockets = await Promise.all(Array.from({ length: run.connections }, () => openSocket(run.url)));
  const latencies: number[] = [];
  let ops = 0;
  let events = 0;
  let errors = 0;
  let rejected = 0;
  let stopAt = Infinity;
  const started = performance.now();
  stopAt = started + run.seconds * 1000;
  const prefix = `w${Date.now().toString(36)}`;

  await Promise.all(
    sockets.map(
      (socket, c) =>
        new Promise<void>((resolve) => {
          let sentAt = 0;
          let n = 0;
          const sendNext = () => {
            if (performance.now() >= stopAt) {
              resolve();
              return;
            }
            const batch = run.batches[(c + n) % run.batches.length]!;
            const ref = n++;
            sentAt = performance.now();
            socket.send(pack({ op: 'events', ref, events: withIds(batch, run.placeholder, `${prefix}-${c}-${ref}`) }));
          };
          socket.on('message', (data: Buffer) => {
            const reply = unpack(data) as Acks;
            if (reply.op === 'acks') {
              latencies.push(performance.now() - sentAt);
              ops++;
              events += (reply.accepted ?? 0) + (reply.duplicates ?? 0);
            } else if (reply.op === 'error') {
              rejected++;
            }
            sendNext();
          });
          socket.once('close', () => {
            errors++;
            resolve();
          });
          sendNext();
        }),
    ),
  );
  const durationSec = (performance.now() - started) / 1000;
  for (const socket of sockets) {
    socket.removeAllListeners('close');
    socket.close();
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    tool: 'ws',
    requestsPerSec: ops / durationSec,
    eventsPerSec: events / durationSec,
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    requests: ops,
    durationSec,
    non2xx: rejected,
    errors,
  };
}
