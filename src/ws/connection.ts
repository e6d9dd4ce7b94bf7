// One WebSocket connection's state: its shop, its subscriptions, its event ops awaiting a commit, and
// whether it is behind (live pushes skipped until its buffer drains). Valid from uWS `open` to `close`;
// after `close` nothing touches the socket again (uWS aborts the process on a closed socket).
import type { WebSocket } from 'uWebSockets.js';
import type { Principal } from '../app/principal.js';
import type { BackpressurePolicy } from './backpressure.js';
import { encodeFrame, type Frame } from './codec.js';
import type { ServerMessage } from './protocol.js';
import type { SocketLimit } from './socket-limit.js';
/** What a connection knows of a live list it is subscribed to (subscriptions.ts keeps the rest: a Topic). */
export interface Subscribed {
  /** The subscription id clients see, and the uWS topic name. */
  readonly id: string;
  /** The last list published, in the encoding its subscribers asked for; undefined before any. */
  readonly frame: Frame | undefined;
  readonly binary: boolean;
}

/** What uWS keeps on each socket (its UserData). */
export interface SocketData<S extends Subscribed = Subscribed> {
  conn: Connection<S>;
}

export class Connection<S extends Subscribed = Subscribed> {
  #ws: WebSocket<SocketData<S>> | undefined;
  #closed = false;
  /** performance.now() when live pushes started skipping this socket; undefined when it keeps up. */
  #behindSince: number | undefined;
  /** Subscriptions by id (= their topic's id). */
  readonly subs = new Map<string, S>();
  /** Subscriptions made as a customer proven by a token: when the token expires (epoch s), and in which encoding they answer. */
  readonly tokenExpiry = new Map<string, { expiresAtS: number; binary: boolean }>();
  /** Topics that changed while this socket was behind: it gets their latest list when it resumes. */
  readonly missed = new Set<S>();
  /** Event ops received and not yet answered. */
  inFlight = 0;
  /** Frames sent to it (replies, and pushes not published to a topic), for /metrics. */
  framesSent = 0;

  constructor(
    /** Who opened it: its shop, and how its customerIds are checked (refreshed when keys change). */
    public principal: Principal,
    /** The API key it was opened with: checked again whenever the shop's keys change. */
    readonly key: string,
    readonly policy: BackpressurePolicy,
    /** Its rate limits; undefined for a client that is not limited (exempt, or limits off). */
    readonly limit?: SocketLimit,
  ) {}

  get shopId(): string {
    return this.principal.shopId;
  }

  attach(ws: WebSocket<SocketData<S>>): void {
    this.#ws = ws;
  }

  /** Called from uWS `close`: the socket is gone. */
  detach(): void {
    this.#closed = true;
    this.#ws = undefined;
  }

  get open(): boolean {
    return this.#ws !== undefined && !this.#closed;
  }

  get behind(): boolean {
    return this.#behindSince !== undefined;
  }

  get behindSince(): number | undefined {
    return this.#behindSince;
  }

  get buffered(): number {
    return this.#ws?.getBufferedAmount() ?? 0;
  }

  reply(message: ServerMessage, binary: boolean): void {
    this.send(encodeFrame(message, binary), binary);
  }

  /** A mandatory message (a reply): sent even when behind; uWS drops it (and closes) past maxBackpressure. */
  send(frame: Frame, binary: boolean): void {
    const ws = this.#ws;
    if (ws === undefined || this.#closed) return;
    this.framesSent++;
    // Corked: a send after an await (an ack) is then one syscall with whatever follows it in this tick.
    ws.cork(() => ws.send(frame, binary));
    if (this.open && this.policy.shouldSkip(ws.getBufferedAmount())) this.fallBehind(performance.now());
  }

  /** Stops live pushes: leaves every uWS topic (publish then skips this socket; nothing is queued). */
  fallBehind(now: number): void {
    if (this.#behindSince !== undefined || !this.open) return;
    this.#behindSince = now;
    for (const topic of this.subs.values()) this.#ws!.unsubscribe(topic.id);
  }

  /** Joins the topics again; returns the ones that changed meanwhile, to be sent their latest list. */
  resume(): S[] {
    if (this.#behindSince === undefined || !this.open) return [];
    this.#behindSince = undefined;
    for (const topic of this.subs.values()) this.#ws!.subscribe(topic.id);
    const missed = [...this.missed];
    this.missed.clear();
    return missed;
  }

  /** Joins a new subscription's topic (unless behind: it joins on resume). */
  join(topic: S): void {
    this.subs.set(topic.id, topic);
    if (this.open && !this.behind) this.#ws!.subscribe(topic.id);
  }

  leave(topic: S): void {
    this.subs.delete(topic.id);
    this.missed.delete(topic);
    if (this.open && !this.behind) this.#ws!.unsubscribe(topic.id);
  }

  /** Graceful close with a close frame (shutdown). */
  end(code: number, reason: string): void {
    if (this.open) this.#ws!.end(code, reason);
  }

  /** Forceful close without a close frame: for a reader that never drains (it would not read one). */
  terminate(): void {
    if (this.open) this.#ws!.close();
  }
}
