// The latest snapshot of each shop's models, so a restart replays only the events after it.
// Taking one has two steps. `copy` copies the state out of the live models on the main thread, a
// slice per turn of the event loop (the caller keeps the models unchanged until it resolves: see
// ShopEngines.hold), so no request waits behind a copy of the whole store; `write` transfers the
// copy to a worker thread (snapshot-worker.ts) that commits it durably. The copy's byte parts
// live in a CopyArena kept between snapshots up to a bound (see copy-arena.ts for why).
import { Worker } from 'node:worker_threads';
import { compiledModuleUrl } from '../compiled-module.js';
import { handOver } from '../engine/typed-arrays.js';
import type { Databases, SnapshotRecord } from './database.js';
import { CopyArena } from './copy-arena.js';
import { byteCopySizes, copyParts, joinParts, splitParts } from './snapshot-parts.js';
import type { WriterReply, WriterRequest } from './snapshot-worker.js';

/** A snapshot copied out of the models: the header and its parts, owned by nobody else. */
export interface SnapshotCopy {
  header: unknown;
  parts: Uint8Array[];
  /** Hands the arena memory the parts live in back (once written or dropped); absent for fresh buffers. */
  release?: () => void;
}

/** Lets the event loop run other work (requests, commits) before the next slice. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

export class SnapshotStore {
  #worker: Worker | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #arena: CopyArena;
  #closing: Promise<void> | undefined;

  readonly pause: () => Promise<void>;

  constructor(
    readonly dbs: Databases,
    options: {
      /** What the copy awaits between slices: the next turn of the event loop (tests may hold it). */
      pause?: () => Promise<void>;
      /** The largest copy buffer kept between snapshots (a CopyArena; default: any); larger copies get fresh buffers, freed after the write. */
      keepBufferBytes?: number;
    } = {},
  ) {
    this.pause = options.pause ?? nextTurn;
    this.#arena = new CopyArena(options.keepBufferBytes ?? Infinity);
  }

  /**
   * The shop's latest snapshot with its parts in place; undefined when none, when its parts are
   * gone, or when it predates log positions (it names a `lastEventId` instead: events stored
   * after it with earlier ids are not in it, so the whole log replays).
   */
  get(shopId: string): SnapshotRecord | undefined {
    const header = this.dbs.snapshots.get(shopId);
    if (header === undefined || typeof (header as Partial<SnapshotRecord>).position !== 'number') return undefined;
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
   * The log position of the shop's latest snapshot (what the log before it may be pruned to);
   * undefined when it has none with a position. Reads the header only, not the parts.
   */
  position(shopId: string): number | undefined {
    // The header itself only for a snapshot written before its position was kept beside it.
    const position = this.dbs.snapshotPositions.get(shopId) ?? (this.dbs.snapshots.get(shopId) as Partial<SnapshotRecord> | undefined)?.position;
    return typeof position === 'number' ? position : undefined;
  }

  /** Copies the record a slice per turn; what it points to must not change until this resolves. */
  async copy(record: SnapshotRecord, sliceBytes?: number): Promise<SnapshotCopy> {
    const { header, parts } = splitParts(record);
    // Lent unless an earlier copy is still being written or the parts outgrow the bound: then this one gets fresh buffers.
    const lease = this.#closing === undefined ? this.#arena.lend(byteCopySizes(parts)) : undefined;
    try {
      return { header, parts: await copyParts(parts, this.pause, sliceBytes, lease?.views), release: lease?.release };
    } catch (error) {
      lease?.release();
      throw error;
    }
  }

  /** Bytes of copy buffers kept between snapshots. */
  get arenaBytes(): number {
    return this.#arena.byteLength;
  }

  /** Copies the record, then stores it: what it points to must not change until this resolves. */
  put(shopId: string, record: SnapshotRecord): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(new Error('the snapshot store is closed'));
    return this.#tracked(this.copy(record).then((copy) => this.#write(shopId, copy)));
  }

  /**
   * Stores the copy, replacing the shop's previous snapshot; resolves once it is durable. The
   * copy's parts are transferred to the writer thread: they are unusable here afterwards.
   */
  write(shopId: string, copy: SnapshotCopy): Promise<void> {
    if (this.#closing !== undefined) {
      copy.release?.();
      return Promise.reject(new Error('the snapshot store is closed'));
    }
    return this.#tracked(this.#write(shopId, copy));
  }

  #write(shopId: string, copy: SnapshotCopy): Promise<void> {
    const worker = this.#startedWorker();
    const id = this.#nextId++;
    const done = new Promise<void>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    // The arena's memory is the writer's until it answers (or is gone).
    if (copy.release !== undefined) done.then(copy.release, copy.release);
    worker.ref();
    const request: WriterRequest = { kind: 'put', id, shopId, header: copy.header, parts: copy.parts };
    // Fresh buffers are transferred; the arena's are shared, not moved.
    const transfer = copy.parts.map((part) => part.buffer).filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
    worker.postMessage(request, transfer);
    return done;
  }

  /** `close` waits for the write before it stops the writer. */
  #tracked(write: Promise<void>): Promise<void> {
    this.#inFlight.add(write);
    const forget = () => this.#inFlight.delete(write);
    write.then(forget, forget);
    return write;
  }

  /** Waits for the writes in flight, then stops the writer thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled(this.#inFlight);
      this.#arena.clear();
      const worker = this.#worker;
      if (worker === undefined) return;
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
