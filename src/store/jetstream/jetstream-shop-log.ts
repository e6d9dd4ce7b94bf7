// The shop log past one machine: every write is published to the JetStream stream (acknowledged by
// a quorum of its replicas), and answered once this node's follower has materialized it into the
// node's LMDB log (log-follower.ts), with what materializing it stored. Reads are the local log's:
// every node's holds the same entries at the same positions.
import { randomBytes } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { ObjectStore } from '@nats-io/obj';
import { AppError } from '../../errors.js';
import type { EaseArtifact, ShopChange } from '../log-entry.js';
import type { Pruned } from '../log-retention.js';
import type { ShopCommand } from '../shop-command.js';
import type { EventsAppended, LmdbShopLog, LogRecord, NewEvent, Sender, ShopLog } from '../shop-log.js';
import { materializedThrough, materializedTime } from './log-follower.js';
import { shopSubject } from './log-stream.js';
import { encodeArtifact, encodeMessage, type LogMessage, type WriteOutcome } from './log-message.js';

/** How long a publish waits for the stream's acknowledgement (a quorum of its replicas). */
const PUBLISH_TIMEOUT_MS = 1_000;
/** How far apart the clocks of the nodes that write may be, at most, for de-duplication to decide alike on every node. */
const CLOCK_SKEW_MARGIN_MS = 3_600_000;
/** How long a write waits for this node's follower to materialize it once the stream has it. */
const MATERIALIZE_TIMEOUT_MS = 10_000;
/** A write not materialized this long after the stream took it tells `stalled` (its follower may need a new consumer). */
const NUDGE_AFTER_MS = 1_500;
/** How often waiting writers look at what the follower (maybe another process) has materialized. */
const LOOK_MS = 1;

export class JetStreamShopLog implements ShopLog {
  /** Message ids: this process's random prefix and a counter, unique across the cluster. */
  readonly #idPrefix = randomBytes(9).toString('base64url');
  #nextId = 0;
  readonly #waiters: { seq: number; resolve: () => void }[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly js: JetStreamClient,
    readonly subjectPrefix: string,
    readonly local: LmdbShopLog,
    readonly fits: ObjectStore,
    /** How many times the client has lost its server and reconnected so far. */
    readonly reconnects: () => number = () => 0,
    /** Told when a write waits long for this node to materialize it (this process's follower, if it runs here, reads the stream again). */
    readonly stalled: () => void = () => {},
  ) {}

  /**
   * The storefront budget is counted where each node's follower materializes the append, in stream
   * order: every node decides alike. One this node already sees spent is refused before publishing,
   * so past the budget only the writes of that moment reach the stream (and stay there until its retention).
   */
  async appendEvents(shopId: string, events: readonly NewEvent[], receivedAt: number, dedupSince: number, sender: Sender = 'public'): Promise<EventsAppended> {
    const spentUntil = sender === 'public' ? this.local.storefront.spentUntil(shopId, receivedAt) : undefined;
    if (spentUntil !== undefined) return { first: this.local.head(shopId), duplicateOf: events.map(() => undefined), refusedUntil: spentUntil };
    const outcome = await this.#write(shopId, { kind: 'events', events, receivedAt, dedupSince, sender });
    if (!('first' in outcome)) throw new Error(`an append of events was materialized as ${JSON.stringify(outcome)}`);
    const appended: EventsAppended = { first: outcome.first, duplicateOf: outcome.duplicateOf.map((id) => id ?? undefined) };
    if (outcome.refusedUntil !== undefined) appended.refusedUntil = outcome.refusedUntil;
    return appended;
  }

  async append(shopId: string, command: ShopCommand, at: number): Promise<{ change: ShopChange; position: number } | undefined> {
    const outcome = await this.#write(shopId, { kind: 'command', command, at });
    return this.#change(shopId, outcome);
  }

  async publishEaseFit(shopId: string, artifact: EaseArtifact, fittedThrough: number, at: number): Promise<number> {
    const object = `${shopId}/${this.#messageId()}`;
    await this.fits.putBlob({ name: object }, encodeArtifact(artifact));
    const done = this.#change(shopId, await this.#write(shopId, { kind: 'ease-fit', object, fittedThrough, at }));
    if (done === undefined) throw new Error(`the EASE fit ${object} was not materialized`);
    return done.position;
  }

  async eraseShop(shopId: string): Promise<number> {
    const outcome = await this.#write(shopId, { kind: 'erase-shop' });
    return 'removed' in outcome ? outcome.removed : 0;
  }

  easeFit(shopId: string, position: number): EaseArtifact | undefined {
    return this.local.easeFit(shopId, position);
  }

  read(shopId: string, after?: number, through?: number): Iterable<LogRecord> {
    return this.local.read(shopId, after, through);
  }

  head(shopId: string, latest?: boolean): number {
    return this.local.head(shopId, latest);
  }

  heads(latest?: boolean): { shopId: string; head: number }[] {
    return this.local.heads(latest);
  }

  start(shopId: string, latest?: boolean): number {
    return this.local.start(shopId, latest);
  }

  prune(shopId: string, through: number, before: number): Promise<Pruned> {
    return this.local.prune(shopId, through, before);
  }

  /** Each node's own log, as its retention: the stream keeps what it was sent (docs/api.md, erasure). */
  forgetErasedNames(shopId: string, through: number): Promise<number> {
    return this.local.forgetErasedNames(shopId, through);
  }

  /**
   * Every node must decide a messageId's duplicate alike, and a message is checked against the
   * dedupSince its writer gave it (its own clock, minus the window). A node behind the stream (catching
   * up, restored from a backup) still has older messages to check: it keeps the entries they may
   * need, shifting `before` back by how far its log is behind, and by a margin for the writers' clocks.
   */
  pruneDedup(before: number, batch?: number, now = Date.now()): Promise<number> {
    const time = materializedTime(this.local.dbs);
    const behind = time === undefined ? 0 : Math.max(0, now - time);
    return this.local.pruneDedup(before - behind - CLOCK_SKEW_MARGIN_MS, batch);
  }

  onCommitted(listener: (shopId: string, head: number) => void): void {
    this.local.onCommitted(listener);
  }

  #messageId(): string {
    return `${this.#idPrefix}-${(this.#nextId++).toString(36)}`;
  }

  /** The change a command's outcome names, read back from the local log (undefined: it changed nothing). */
  #change(shopId: string, outcome: WriteOutcome): { change: ShopChange; position: number } | undefined {
    if (!('position' in outcome) || outcome.position === 0) return undefined;
    const [record] = [...this.local.read(shopId, outcome.position - 1, outcome.position)];
    if (record?.change === undefined) throw new Error(`shop "${shopId}": no change at position ${outcome.position} of the local log`);
    return { change: record.change, position: outcome.position };
  }

  /** Publishes the message, waits until this node has materialized it, and returns what that stored. */
  async #write(shopId: string, message: LogMessage): Promise<WriteOutcome> {
    const msgId = this.#messageId();
    const seq = await this.#publish(shopSubject(this.subjectPrefix, shopId), encodeMessage(message), msgId);
    await this.#materialized(seq);
    const outcome = this.local.dbs.replicaOutcomes.get(msgId);
    if (outcome === undefined) throw new Error(`replicated log sequence ${seq} was materialized without its outcome`);
    return outcome;
  }

  /**
   * Publishes with its message id (JetStream stores a retried publish once), once more if the
   * client moved to another server during the first try (a NATS server lost); resolves with its
   * sequence. Without a quorum of the stream's replicas the write is refused: 503 with Retry-After.
   */
  async #publish(subject: string, data: Uint8Array, msgID: string): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const reconnects = this.reconnects();
      try {
        return (await this.js.publish(subject, data, { msgID, timeout: PUBLISH_TIMEOUT_MS })).seq;
      } catch (error) {
        if (attempt === 1 && this.reconnects() !== reconnects) continue;
        throw new AppError('unavailable', `the replicated log did not take the write (${(error as Error).message}): a quorum of its NATS servers is not reachable. It was not acknowledged: send it again (an event with a messageId is stored once)`, undefined, { 'retry-after': '1' });
      }
    }
  }

  /** Resolves once this node's log holds stream sequence `seq` (written by the follower, maybe in another process). */
  #materialized(seq: number): Promise<void> {
    if (materializedThrough(this.local.dbs) >= seq) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        clearTimeout(nudge);
        const i = this.#waiters.findIndex((w) => w.resolve === done);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(new AppError('unavailable', `the write is in the replicated log (sequence ${seq}) but this node has not caught up with it within ${MATERIALIZE_TIMEOUT_MS / 1000} s; read it back with its position from another node, or try again`, undefined, { 'retry-after': '1' }));
      }, MATERIALIZE_TIMEOUT_MS);
      const nudge = setTimeout(() => this.stalled(), NUDGE_AFTER_MS);
      const done = () => {
        clearTimeout(timeout);
        clearTimeout(nudge);
        resolve();
      };
      this.#waiters.push({ seq, resolve: done });
      this.#timer ??= setInterval(() => this.#look(), LOOK_MS);
    });
  }

  #look(): void {
    this.local.dbs.root.resetReadTxn(); // see the follower's commits, whichever process made them
    const through = materializedThrough(this.local.dbs);
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      if (this.#waiters[i]!.seq > through) continue;
      this.#waiters[i]!.resolve();
      this.#waiters.splice(i, 1);
    }
    if (this.#waiters.length === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
