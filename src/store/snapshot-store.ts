// The latest snapshot of each shop's models, so a restart replays only the events after it.
// Written by a worker thread (snapshot-worker.ts): `put` hands the state over with one structured
// clone in the caller's turn — the state's byte arrays are views of the live models, so they must
// be copied before the next event — and the worker encodes and commits it. A copy made on the main
// thread as ArrayBuffers would count as V8 external memory and set off full collections of the heap
// (seconds at store scale); the clone's bytes live outside the heap until the worker reads them.
import { Worker } from 'node:worker_threads';
import { compiledModuleUrl } from '../compiled-module.js';
import { handOver } from '../engine/typed-arrays.js';
import type { Databases, SnapshotRecord } from './database.js';
import { joinParts } from './snapshot-parts.js';
import type { WriterReply, WriterRequest } from './snapshot-worker.js';

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

export class SnapshotStore {
  #worker: Worker | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  readonly #inFlight = new Set<Promise<void>>();
  #closing: Promise<void> | undefined;

  constructor(readonly dbs: Databases) {}

  /** The shop's latest snapshot with its parts in place; undefined when none (or one whose parts are gone). */
  get(shopId: string): SnapshotRecord | undefined {
    const header = this.dbs.snapshots.get(shopId);
    if (header === undefined) return undefined;
    try {
      // getBinary copies each part out of the map: the restored models may keep those buffers.
      return joinParts<SnapshotRecord>(header, (index) => {
        const bytes = this.dbs.snapshotParts.getBinary([shopId, index]);
        return bytes === undefined ? undefined : handOver(bytes);
      });
    } catch {
      return undefined;
    }
  }

  /**
   * Stores the snapshot, replacing the shop's previous one; resolves once it is durable. The
   * record is copied before this returns: the caller may change what it points to right after.
   */
  put(shopId: string, record: SnapshotRecord): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(new Error('the snapshot store is closed'));
    const worker = this.#startedWorker();
    const id = this.#nextId++;
    const done = new Promise<void>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#inFlight.add(done);
    const forget = () => this.#inFlight.delete(done);
    done.then(forget, forget);
    worker.ref();
    worker.postMessage({ kind: 'put', id, shopId, record } satisfies WriterRequest);
    return done;
  }

  /** Waits for the writes in flight, then stops the writer thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const worker = this.#worker;
      if (worker === undefined) return;
      await Promise.allSettled(this.#inFlight);
      const closed = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.ref();
      worker.postMessage({ kind: 'close' } satisfies WriterRequest);
      await closed;
    })();
    return this.#closing;
  }

  #startedWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(compiledModuleUrl(import.meta.url, './snapshot-worker.js'), { workerData: { path: this.dbs.path } });
    worker.on('message', (reply: WriterReply) => {
      if ('closed' in reply) {
        void worker.terminate();
        return;
      }
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      if (reply.error === undefined) pending?.resolve();
      else pending?.reject(new Error(reply.error));
    });
    const fail = (error: Error) => {
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      this.#worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.#worker === worker) fail(new Error(`the snapshot writer exited (code ${code})`));
    });
    this.#worker = worker;
    return worker;
  }
}
