// Materializes the replicated log into this node's LMDB: one process per node (it holds the
// follower lease) reads the JetStream stream in order from the sequence after the last one its log
// holds, and appends each message to the shop's local log exactly as the LMDB log appends a write
// (events de-duplicated by messageId, a command turned into its change against the tables as they
// are then). Every node does the same in the same order, so every node's log holds the same entries
// at the same per-shop positions; everything after (the processes that apply the log, snapshots,
// position tokens) works as it does on one machine. Each message's sequence, and what it stored
// (for its writer, by message id), are written in the transaction that materializes it: a message
// is in the local log once, whatever crashes.
import type { Consumer, ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { ObjectStore } from '@nats-io/obj';
import type { Databases } from '../database.js';
import { commitDurably, type Alongside } from '../durable-commit.js';
import type { EventsAppended, LmdbShopLog } from '../shop-log.js';
import type { EaseArtifact } from '../log-entry.js';
import { subjectShop } from './log-stream.js';
import { decodeArtifact, decodeMessage, type LogMessage, type WriteOutcome } from './log-message.js';
import type { Log } from '../../observability/log.js';

/** A message as read from the stream, with an ease-fit's artifact fetched. */
interface ReadMessage {
  decoded: LogMessage;
  artifact?: EaseArtifact;
}

/** Messages materialized without waiting for their commits (lmdb-js commits a turn's transactions together). */
const IN_FLIGHT = 512;
/** Outcomes are kept this long for their writers (which read them within a second), then pruned. */
export const OUTCOME_TTL_MS = 10 * 60_000;
/**
 * A follower that has not moved for this long while the stream is ahead reads it again from its
 * last sequence; each time that brings no progress the wait doubles, up to LONGEST_PATIENCE_MS, so a
 * consumer slow to start (a leader election, a busy machine) is not replaced before it delivers.
 */
const STALL_MS = 2_000;
const LONGEST_PATIENCE_MS = 30_000;

/** A message materialized twice (two followers for a moment, a redelivery): the second changes nothing. */
class AlreadyMaterialized extends Error {}

/** The last stream sequence this node's log holds (0: none). */
export function materializedThrough(dbs: Databases): number {
  return dbs.replicaState.get('seq') ?? 0;
}

/** When the stream stored the last message this node's log holds, in ms since the epoch (undefined: none yet). */
export function materializedTime(dbs: Databases): number | undefined {
  return dbs.replicaState.get('time');
}

export class LogFollower {
  #stopped = false;
  #running: Promise<void> | undefined;
  #messages: ConsumerMessages | undefined;
  #progressAt = Date.now();
  /** How long without progress before the stream is read again (STALL_MS, doubled by each read that did not help). */
  #patienceMs = STALL_MS;
  #checking = false;
  #watchdog: NodeJS.Timeout | undefined;
  #pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly js: JetStreamClient,
    /** The log's stream, and the prefix of its subjects (`<prefix>.<shopId>`). */
    readonly stream: string,
    readonly subjectPrefix: string,
    readonly local: LmdbShopLog,
    readonly fits: ObjectStore,
    readonly report: Log,
    /** The stream's last sequence as the cluster has it now (for the stall watchdog). */
    readonly streamLast: () => Promise<number>,
    readonly clock: () => number = Date.now,
  ) {}

  get dbs(): Databases {
    return this.local.dbs;
  }

  start(): void {
    this.#stopped = false;
    this.#running = this.#run();
    this.#watchdog = setInterval(() => void this.#checkStall(), 500);
    this.#watchdog.unref();
    this.#pruneTimer = setInterval(() => void this.pruneOutcomes().catch(() => {}), 60_000);
    this.#pruneTimer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#watchdog);
    clearInterval(this.#pruneTimer);
    await this.#messages?.close();
    await this.#running;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        const from = materializedThrough(this.dbs) + 1;
        const consumer: Consumer = await this.js.consumers.get(this.stream, { opt_start_seq: from });
        const messages = await consumer.consume({ max_messages: IN_FLIGHT });
        this.#messages = messages;
        if (this.#stopped) break;
        await this.#materializeAll(messages, from);
      } catch (error) {
        if (this.#stopped) break;
        const from = materializedThrough(this.dbs) + 1;
        this.report(`reading the replicated log failed (${(error as Error).message}); reading again from sequence ${from} in 1 s`, { event: 'replicated-log-read-failed', level: 'warn', from, error: (error as Error).message });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  /** Materializes messages in order, up to IN_FLIGHT commits under way; returns when the messages end (closed, or a gap). */
  async #materializeAll(messages: ConsumerMessages, from: number): Promise<void> {
    const pending: Promise<void>[] = [];
    // The first failure of a commit under way (each promise is handled at once: none is left unhandled).
    let failure: unknown;
    let expected = from;
    /** The sequence of the message before this one, as handed to #materialize (its commit must be in first). */
    let previousSeq = from - 1;
    for await (const message of messages) {
      if (this.#stopped) break;
      if (message.seq < expected) continue; // already read
      if (message.seq > expected) {
        // A gap: messages removed from the stream (its retention) before this node read them.
        this.report(`the replicated log holds no sequence ${expected} to ${message.seq - 1} any more (its retention dropped them before this node read them); this node's log goes on from ${message.seq}`, { event: 'replicated-log-gap', level: 'error', from: expected, to: message.seq - 1 });
      }
      const previous = previousSeq;
      previousSeq = message.seq;
      expected = message.seq + 1;
      const decoded = decodeMessage(message.data);
      const read = decoded === undefined ? undefined : await this.#withArtifact(decoded);
      pending.push(this.#materialize(message, read, previous).catch((error: unknown) => void (failure ??= error)));
      if (pending.length >= IN_FLIGHT) await Promise.all(pending.splice(0));
      if (failure !== undefined) throw failure;
    }
    await Promise.all(pending);
    if (failure !== undefined) throw failure;
  }

  /** An ease-fit message with its artifact read from the fits store (undefined artifact: it is gone). */
  async #withArtifact(decoded: LogMessage): Promise<ReadMessage> {
    if (decoded.kind !== 'ease-fit') return { decoded };
    const bytes = await this.fits.getBlob(decoded.object);
    return { decoded, artifact: bytes === null ? undefined : decodeArtifact(bytes) };
  }

  /** Appends one message to the local log, with its sequence and outcome, in one transaction. */
  /** @param previous the sequence the local log must end at before this message (the one handed before it) */
  async #materialize(message: JsMsg, read: ReadMessage | undefined, previous: number): Promise<void> {
    const seq = message.seq;
    const shopId = subjectShop(this.subjectPrefix, message.subject);
    const msgId = message.headers?.get('Nats-Msg-Id') ?? '';
    const at = this.clock();
    // First thing in the transaction, before it writes anything (a throw there writes nothing).
    const check = () => {
      const through = materializedThrough(this.dbs);
      if (through >= seq) throw new AlreadyMaterialized();
      // The message before it did not commit (a commit refused, a full disk): never step over it.
      if (through !== previous) throw new Error(`replicated log sequence ${seq} follows ${previous}, but this node's log ends at ${through}`);
    };
    const record = (outcome: Omit<WriteOutcome, 'seq' | 'at'> | undefined) => {
      this.dbs.replicaState.put('seq', seq);
      this.dbs.replicaState.put('time', Math.floor(message.info.timestampNanos / 1e6));
      if (outcome !== undefined && msgId !== '') this.dbs.replicaOutcomes.put(msgId, { seq, at, ...outcome } as WriteOutcome);
    };
    const alongside = <R>(outcome: (result: R) => Omit<WriteOutcome, 'seq' | 'at'>): Alongside<R> => ({ check, record: (result) => record(outcome(result)) });
    try {
      const decoded = read?.decoded;
      if (decoded === undefined) {
        this.report(`replicated log sequence ${seq} (subject ${message.subject}) is not a Pairwise message: skipped`, { event: 'replicated-log-skipped', level: 'warn', seq, reason: 'not a Pairwise message' });
        await commitDurably(this.dbs, () => {
          check();
          record(undefined);
        });
      } else if (decoded.kind === 'events') {
        await this.local.appendEvents(
          shopId,
          decoded.events,
          decoded.receivedAt,
          decoded.dedupSince,
          decoded.sender,
          alongside((appended: EventsAppended) => ({
            first: appended.first,
            duplicateOf: appended.duplicateOf.map((id) => id ?? null),
            ...(appended.refusedUntil === undefined ? {} : { refusedUntil: appended.refusedUntil }),
          })),
        );
      } else if (decoded.kind === 'command') {
        await this.local.append(shopId, decoded.command, decoded.at, alongside((done: { position: number } | undefined) => ({ position: done?.position ?? 0 })));
      } else if (decoded.kind === 'ease-fit') {
        if (read?.artifact === undefined) {
          this.report(`the EASE fit of replicated log sequence ${seq} is no longer in the fits store: skipped`, { event: 'replicated-log-skipped', level: 'warn', seq, reason: 'EASE fit gone' });
          await commitDurably(this.dbs, () => {
            check();
            record({ position: 0 });
          });
        } else {
          await this.local.publishEaseFit(shopId, read.artifact, decoded.fittedThrough, decoded.at, alongside((position: number) => ({ position })));
        }
      } else {
        await this.local.eraseShop(shopId, alongside((removed: number) => ({ removed })));
      }
      this.#progressAt = this.clock();
      this.#patienceMs = STALL_MS;
    } catch (error) {
      if (error instanceof AlreadyMaterialized) return;
      throw error;
    }
  }

  /**
   * Reads the stream again from the sequence after the last one materialized: at once when the
   * client moved to another NATS server (`now`: its consumer may not recover by itself), else only
   * once nothing moved for the current patience (a writer waiting long for its write).
   */
  restart(now = false): void {
    if (this.#stopped || (!now && this.clock() - this.#progressAt < this.#patienceMs)) return;
    this.#readAgain();
  }

  /** Closes the consumer (the read loop opens a new one from the last sequence) and waits longer before the next time. */
  #readAgain(): void {
    this.#progressAt = this.clock();
    this.#patienceMs = Math.min(LONGEST_PATIENCE_MS, this.#patienceMs * 2);
    void this.#messages?.close();
  }

  /**
   * Reads the stream again when nothing moved for the current patience and the stream is ahead, or does not say
   * (a consumer that lost its server, the stream's leader, and did not recover by itself).
   */
  async #checkStall(): Promise<void> {
    if (this.#stopped || this.#checking || this.clock() - this.#progressAt < this.#patienceMs) return;
    this.#checking = true;
    try {
      const last = await this.streamLast().catch(() => undefined);
      const through = materializedThrough(this.dbs);
      if (last !== undefined && last <= through) {
        this.#progressAt = this.clock(); // caught up: nothing to read
        return;
      }
      const stalledSeconds = Math.round((this.clock() - this.#progressAt) / 1000);
      this.report(`no progress for ${stalledSeconds} s at sequence ${through} while the replicated log is ${last === undefined ? 'not answering' : `at ${last}`}: reading it again`, { event: 'replicated-log-stalled', level: 'warn', seq: through, last: last ?? null, seconds: stalledSeconds });
      this.#readAgain();
    } finally {
      this.#checking = false;
    }
  }

  /** Drops the outcomes older than OUTCOME_TTL_MS; resolves with how many. */
  async pruneOutcomes(): Promise<number> {
    const before = this.clock() - OUTCOME_TTL_MS;
    const stale: string[] = [];
    for (const { key, value } of this.dbs.replicaOutcomes.getRange()) if (value.at < before) stale.push(key);
    if (stale.length > 0) await commitDurably(this.dbs, () => stale.forEach((key) => this.dbs.replicaOutcomes.remove(key)));
    return stale.length;
  }
}
