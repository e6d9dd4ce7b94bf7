// GET /api/stream on the service's uWS app: authentication and rate limits at the upgrade and per
// message, the socket behaviour with its explicit limits, the backpressure sweep, and a shutdown
// that sends pending acks before closing.
import uWS, { type TemplatedApp, type WebSocketBehavior } from 'uWebSockets.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { KeyResolver } from '../app/principal.js';
import { presentedKey, type KeyNeeded } from '../transport/auth.js';
import type { CustomerIdentity } from '../app/customer-identity.js';
import { Exchange, readRequest, toAppError } from '../transport/exchange.js';
import { Lifecycle } from '../transport/lifecycle.js';
import type { RateLimits } from '../transport/rate-limits.js';
import { refuseBadFraming, route, type Access } from '../transport/route.js';
import type { EventTracking } from '../app/track-events.js';
import type { AppliedChanges } from '../app/applied-changes.js';
import type { PositionWaits } from '../app/position-waits.js';
import type { Answers } from '../app/answers.js';
import type { AnswerObserver } from '../transport/exchange.js';
import type { Telemetry } from '../transport/telemetry.js';
import { BackpressurePolicy } from './backpressure.js';
import { decodeFrame } from './codec.js';
import { Connection, type SocketData as AnySocketData } from './connection.js';
import { costOf, errorMessage, parseClientMessage, refOf, type Ref } from './protocol.js';
import { SocketLimit } from './socket-limit.js';
import { handleMessage, type StreamContext } from './stream-handlers.js';
import { SubscriptionRegistry, type RegistryStats, type Subscriber, type Topic } from './subscriptions.js';

type SocketData = AnySocketData<Topic>;

export interface StreamDeps {
  config: Config;
  resolveKey: KeyResolver;
  identity: CustomerIdentity;
  limits: RateLimits;
  answers: Answers;
  /** The event ops' use cases (as POST /api/events and /batch). */
  events: EventTracking;
  /** What the log applier applied, whoever wrote it: events and catalog changes refresh live lists. */
  applied: AppliedChanges;
  /** Subscriptions that name a write's position (`after`) wait for it, as GET does. */
  positions: PositionWaits;
  clock: () => number;
  /** The upgrades' answers are counted as GET /api/stream's requests (101 when upgraded). */
  telemetry: Telemetry;
}

export interface StreamStats extends RegistryStats {
  connections: number;
  /** Connections opened since start. */
  opened: number;
  /** Subscriptions held by the open connections. */
  subscriptions: number;
  /** Frames received from clients, and sent to one client (replies, catch-ups) since start; pushes published to a topic are `pushes`. */
  framesReceived: number;
  framesSent: number;
  /** Connections whose live pushes are being skipped until their buffer drains. */
  behind: number;
  /** Event ops awaiting their commit (and ack). */
  inFlight: number;
}

/** Close code sent to every client on shutdown ("going away"). */
const GOING_AWAY = 1001;
/** How often open sockets' keys are checked again (through the key cache: a lookup each, LMDB once its entry expires). */
const KEY_RECHECK_MS = 30_000;
/** Close code for a client that keeps sending past its rate limit (RFC 6455 "policy violation"). */
const POLICY_VIOLATION = 1008;
/** Close code for a frame over maxPayloadBytes (RFC 6455 "message too big"). */
const MESSAGE_TOO_BIG = 1009;
/**
 * uWS cuts a frame past its maxPayloadLength without a close frame (the client sees 1006 and no
 * reason). So it is told this many times our cap: a frame over the cap is read and closed with 1009
 * and a reason; past the multiple uWS still cuts it from its header, which bounds what one socket can
 * make us buffer to 4 × the cap.
 */
const RECEIVE_HEADROOM = 4;

export class StreamServer {
  readonly #deps: StreamDeps;
  readonly #policy: BackpressurePolicy;
  readonly #registry: SubscriptionRegistry;
  readonly #lifecycle = new Lifecycle();
  readonly #connections = new Set<Subscriber>();
  readonly #context: StreamContext;
  readonly #upgrades: AnswerObserver;
  #app: TemplatedApp | undefined;
  #opened = 0;
  #framesReceived = 0;
  /** Frames sent to connections since closed. */
  #framesSentClosed = 0;
  /** The key its upgrade needs, as the route table declares GET /api/stream's access. */
  #keyNeeded: KeyNeeded = 'public';
  #sweep: NodeJS.Timeout | undefined;
  #recheck: NodeJS.Timeout | undefined;

  constructor(deps: StreamDeps) {
    this.#deps = deps;
    this.#upgrades = deps.telemetry.observer('/api/stream');
    const ws = deps.config.ws;
    this.#policy = new BackpressurePolicy(ws.maxBackpressureBytes, ws.stallTimeoutSeconds * 1000);
    this.#registry = new SubscriptionRegistry({
      answers: deps.answers,
      clock: deps.clock,
      maxSubscriptions: ws.maxSubscriptions,
      maxTopicsPerShop: ws.maxTopicsPerShop,
      publish: (topic, frame, binary) => this.#app?.publish(topic, frame, binary),
    });
    this.#context = { events: deps.events, identity: deps.identity, registry: this.#registry, lifecycle: this.#lifecycle, positions: deps.positions, clock: deps.clock, maxInFlight: ws.maxInFlight };
    // Events, a product renamed, repriced, made unavailable or deleted, a customer erased, a rule
    // put or removed, or the shop's settings change live lists; a key revoked or a shop's origins
    // changed may end its connections.
    deps.applied.onAnswersChanged((shopId) => this.#registry.changed(shopId));
    deps.applied.onKeysChanged((_shopId, revoked) => {
      if (revoked) this.recheckKeys();
    });
  }

  /** startHttpServer's extraRoutes hook: the WebSocket route under /api and BASE_PATH/api. */
  readonly routes = (app: TemplatedApp, httpLifecycle: Lifecycle, access: Access): void => {
    if (access !== 'public' && access !== 'secret') throw new Error(`GET /api/stream admits by an API key, not access "${access}"`);
    this.#keyNeeded = access;
    this.#app = app;
    const { basePath } = this.#deps.config;
    for (const prefix of basePath === '' ? [''] : ['', basePath]) {
      app.ws<SocketData>(`${prefix}/api/stream`, this.#behavior());
      // Reached by a request without a WebSocket upgrade.
      app.any(`${prefix}/api/stream`, route({ access: 'none' }, () => {
        throw new AppError('upgrade_required', 'GET /api/stream is a WebSocket: connect with a WebSocket client', undefined, { upgrade: 'websocket' });
      }, { lifecycle: httpLifecycle, observer: this.#upgrades }));
    }
    const everyMs = Math.min(1000, Math.max(100, this.#policy.stallMs / 4));
    this.#sweep = setInterval(() => {
      this.#sweepBehind();
      this.#endExpiredTokens(Math.floor(this.#deps.clock() / 1000));
    }, everyMs);
    this.#sweep.unref();
    // Keys revoked by another process (the CLI beside the server) reach open sockets too.
    this.#recheck = setInterval(() => this.recheckKeys(), KEY_RECHECK_MS);
    this.#recheck.unref();
  };

  stats(): StreamStats {
    let behind = 0;
    let subscriptions = 0;
    let framesSent = this.#framesSentClosed;
    for (const conn of this.#connections) {
      if (conn.behind) behind++;
      subscriptions += conn.subs.size;
      framesSent += conn.framesSent;
    }
    return { connections: this.#connections.size, opened: this.#opened, subscriptions, framesReceived: this.#framesReceived, framesSent, behind, inFlight: this.#lifecycle.inFlight, ...this.#registry.stats() };
  }

  /**
   * Checks every open socket's key again (after a key or shop change): a revoked key's sockets are
   * closed with 1008, the others see the shop's current signing keys and origins from now on.
   */
  recheckKeys(): void {
    for (const conn of [...this.#connections]) {
      const principal = this.#deps.resolveKey(conn.key);
      if (principal === undefined || principal.shopId !== conn.shopId) conn.end(POLICY_VIOLATION, 'the API key was revoked');
      else conn.principal = principal;
    }
  }

  /** Refuses new event ops, waits (≤ drainMs) until every one in flight is acked, then closes every socket. */
  async close(drainMs = 10_000): Promise<void> {
    await this.#lifecycle.drain(drainMs);
    clearInterval(this.#sweep);
    clearInterval(this.#recheck);
    this.#registry.close();
    for (const conn of [...this.#connections]) conn.end(GOING_AWAY, 'server shutting down');
  }

  #behavior(): WebSocketBehavior<SocketData> {
    const ws = this.#deps.config.ws;
    return {
      maxPayloadLength: ws.maxPayloadBytes * RECEIVE_HEADROOM,
      idleTimeout: ws.idleTimeoutSeconds,
      maxBackpressure: ws.maxBackpressureBytes,
      // A reply past maxBackpressure is dropped and the socket closed: it is not reading.
      closeOnBackpressureLimit: 1,
      sendPingsAutomatically: true,
      compression: uWS.DISABLED,
      upgrade: (res, req, context) => {
        const request = readRequest(req, undefined, this.#deps.limits.readsForwarded);
        const key = req.getHeader('sec-websocket-key');
        const protocol = req.getHeader('sec-websocket-protocol');
        const extensions = req.getHeader('sec-websocket-extensions');
        const exchange = new Exchange(res, request, undefined, this.#upgrades);
        if (refuseBadFraming(exchange)) return;
        if (this.#lifecycle.closing) {
          exchange.problem(new AppError('unavailable', 'the service is shutting down', undefined, { 'retry-after': '1' }));
          return;
        }
        const limits = this.#deps.limits;
        const client = limits.clientOf(res, request);
        let conn: Subscriber;
        try {
          // The upgrade is a request like any other; the connection's operations are charged later.
          const principal = limits.admit(client, request, this.#deps.resolveKey, this.#keyNeeded);
          const apiKey = presentedKey(request)!; // admitted: there is one
          const limit = client === undefined ? undefined : new SocketLimit(limits, client, apiKey, principal.kind);
          conn = new Connection<Topic>(principal, apiKey, this.#policy, limit);
        } catch (error) {
          exchange.problem(toAppError(error));
          return;
        }
        res.upgrade<SocketData>({ conn }, key, protocol, extensions, context);
        exchange.upgraded();
      },
      open: (socket) => {
        const conn = socket.getUserData().conn;
        conn.attach(socket);
        this.#connections.add(conn);
        this.#opened++;
      },
      message: (socket, message, isBinary) => {
        const conn = socket.getUserData().conn;
        this.#framesReceived++;
        if (message.byteLength > ws.maxPayloadBytes) return conn.end(MESSAGE_TOO_BIG, `a frame may hold at most ${ws.maxPayloadBytes} bytes`);
        const decoded = decodeFrame(message, isBinary);
        if (conn.limit !== undefined) {
          const wait = conn.limit.take(this.#deps.limits.clock(), costOf(decoded));
          if (wait > 0) return this.#refuse(conn, conn.limit, decoded instanceof AppError ? undefined : refOf(decoded), wait, isBinary);
        }
        if (decoded instanceof AppError) return conn.reply(errorMessage(undefined, decoded), isBinary);
        const parsed = parseClientMessage(decoded);
        if (parsed instanceof AppError) return conn.reply(errorMessage(refOf(decoded), parsed), isBinary);
        handleMessage(this.#context, conn, parsed, isBinary);
      },
      drain: (socket) => this.#catchUp(socket.getUserData().conn),
      close: (socket) => {
        const conn = socket.getUserData().conn;
        conn.detach();
        this.#connections.delete(conn);
        this.#framesSentClosed += conn.framesSent;
        this.#registry.drop(conn);
      },
    };
  }

  /** An operation over a rate limit gets rate_limited with the wait in ms; a flooder is closed instead. */
  #refuse(conn: Subscriber, limit: SocketLimit, ref: Ref | undefined, waitMs: number, binary: boolean): void {
    if (limit.flooding) conn.end(POLICY_VIOLATION, 'rate limit exceeded');
    else conn.reply(errorMessage(ref, limit.refusedBy!.opError, Math.ceil(waitMs)), binary);
  }

  /** A socket behind on pushes whose buffer has drained gets the latest of each list it missed. */
  #catchUp(conn: Subscriber): void {
    if (!conn.behind || !this.#policy.canResume(conn.buffered)) return;
    for (const topic of conn.resume()) if (topic.frame !== undefined) conn.send(topic.frame, topic.binary);
  }

  /** Resumes the sockets that drained without a `drain` event, closes those stalled past the timeout. */
  /**
   * Ends the subscriptions whose customer token has expired: the customer is no longer proven, so
   * their lists stop; the client is told with an error frame naming the subscription (the widget
   * subscribes again as the session).
   */
  #endExpiredTokens(nowS: number): void {
    for (const conn of this.#connections) {
      if (conn.tokenExpiry.size === 0) continue;
      for (const [sub, { expiresAtS, binary }] of [...conn.tokenExpiry]) {
        if (expiresAtS > nowS) continue;
        this.#registry.unsubscribe(conn, sub);
        conn.reply({ op: 'error', sub, error: { code: 'invalid_customer_token', detail: 'the customer token of this subscription expired: subscribe again with a fresh token, or as the session' } }, binary);
      }
    }
  }

  #sweepBehind(): void {
    const now = performance.now();
    for (const conn of this.#connections) {
      if (!conn.behind) continue;
      this.#catchUp(conn);
      if (conn.behind && this.#policy.stalled(conn.behindSince!, now)) conn.terminate();
    }
  }
}
