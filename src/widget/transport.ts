// How the widget talks to the service. One WebSocket per page (GET /api/stream, JSON frames) carries
// events and live subscriptions. While it is unavailable, events wait in an outbox and go out with
// POST /api/events/batch, lists come from GET /api/recommendations, and on page hide whatever is
// still unacknowledged leaves with navigator.sendBeacon. Every event keeps its messageId through all
// of this, so a retry on another path is recognised by the server and counts once.
import type { WidgetConfig } from './config.js';
import { forgetPosition, loadOutbox, loadPosition, notePosition, saveOutbox } from './storage.js';
import type { RecommendationList, RecommendationQuery, WireEvent } from './types.js';

/** How long a socket may take to open before events and lists use HTTP instead, in ms. */
const CONNECT_GRACE_MS = 2_500;
/** Events are gathered this long before one HTTP batch goes out, in ms. */
const HTTP_DEBOUNCE_MS = 150;
const MIN_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** The service's batch limit (events) and a safe beacon body size (browsers cap beacons at 64 KiB). */
const MAX_BATCH = 100;
const MAX_BEACON_BYTES = 60_000;
/** Server error codes after which a retry can succeed; any other error (storefront_quota: the shop's budget for the day) drops the event. */
const RETRYABLE = ['unavailable', 'rate_limited', 'too_many_new_sessions', 'internal'];
/** The service refused an event's or a list's customer token: it goes again as the session. */
const TOKEN_REFUSED = 'invalid_customer_token';

type ListHandler = (list: RecommendationList) => void;

export interface Subscription {
  close(): void;
}

interface Subscriber {
  query: RecommendationQuery;
  onList: ListHandler;
  /** The server's subscription id on the current socket. */
  sub?: string;
  /** Set once a list (from either path) has been delivered. */
  answered: boolean;
  closed: boolean;
}

interface ServerMessage {
  op: string;
  ref?: number;
  sub?: string;
  products?: RecommendationList['products'];
  meta?: RecommendationList['meta'];
  results?: { index: number; success: boolean; error?: { code: string; detail: string } }[];
  error?: { code: string; detail: string };
  /** On acks: where the shop's log stood after the write. */
  position?: string;
}

export class Transport {
  readonly #config: WidgetConfig;
  /** Unacknowledged events by messageId, in the order they were made. */
  readonly #outbox = new Map<string, WireEvent>();
  /** Told when the service refused the customer token (main.ts drops it from the tracker). */
  onTokenRefused: () => void = () => {};
  /** messageIds out on the socket (by ref) or in an HTTP request: not sent again meanwhile. */
  readonly #sentOnSocket = new Map<number, string[]>();
  readonly #busy = new Set<string>();
  readonly #subscribers = new Set<Subscriber>();
  readonly #subscribeRefs = new Map<number, Subscriber>();
  #socket: WebSocket | undefined;
  #socketOpenedAt = 0;
  #connectStartedAt = 0;
  #nextRef = 1;
  #retryMs = MIN_RETRY_MS;
  #httpRetryMs = MIN_RETRY_MS;
  #httpTimer: number | undefined;
  #reconnectTimer: number | undefined;

  constructor(config: WidgetConfig) {
    this.#config = config;
    for (const event of loadOutbox<WireEvent>()) if (event && event.messageId) this.#outbox.set(event.messageId, event);
    this.#connect();
    addEventListener('pagehide', () => this.beaconAll());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.beaconAll();
    });
    addEventListener('online', () => this.#reconnectNow());
    if (this.#outbox.size > 0) this.flush();
  }

  /** Events not acknowledged yet (sent or not). */
  get pending(): number {
    return this.#outbox.size;
  }

  /** True while the WebSocket is open. */
  get live(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  send(event: WireEvent): void {
    this.#outbox.set(event.messageId, event);
    this.#persist();
    this.flush();
  }

  /** Calls onList with the list now and, while the socket is up, whenever it changes. */
  subscribe(query: RecommendationQuery, onList: ListHandler): Subscription {
    const subscriber: Subscriber = { query, onList, answered: false, closed: false };
    this.#subscribers.add(subscriber);
    if (this.live) this.#sendSubscribe(subscriber);
    else if (this.#socket === undefined) void this.#fetchList(subscriber);
    else setTimeout(() => subscriber.answered || void this.#fetchList(subscriber), this.#graceLeft());
    return {
      close: () => {
        subscriber.closed = true;
        this.#subscribers.delete(subscriber);
        const sub = subscriber.sub;
        if (sub !== undefined && this.live && ![...this.#subscribers].some((s) => s.sub === sub)) this.#write({ op: 'unsubscribe', sub });
      },
    };
  }

  /** Sends what is waiting: over the socket when it is open, else (after a grace period to connect) over HTTP. */
  flush(): void {
    if (this.live) {
      this.#flushSocket();
      return;
    }
    this.#scheduleHttp(this.#socket === undefined ? HTTP_DEBOUNCE_MS : Math.max(HTTP_DEBOUNCE_MS, this.#graceLeft()));
  }

  /** Page hide: every unacknowledged event leaves with sendBeacon (same messageIds: no double count). */
  beaconAll(): void {
    if (this.#outbox.size === 0 || typeof navigator.sendBeacon !== 'function') return;
    const url = `${this.#config.api}api/events/batch?key=${encodeURIComponent(this.#config.key)}`;
    // Events in an HTTP request keep going (keepalive) and are not sent twice.
    const events = [...this.#outbox.values()].filter((event) => !this.#busyOnHttp(event.messageId));
    for (const chunk of chunks(events)) {
      // A string body is sent as text/plain: no CORS preflight, which a beacon could not do.
      if (navigator.sendBeacon(url, JSON.stringify({ events: chunk }))) for (const event of chunk) this.#forget(event.messageId);
    }
    this.#persist();
  }

  #graceLeft(): number {
    return Math.max(0, this.#connectStartedAt + CONNECT_GRACE_MS - Date.now());
  }

  #busyOnHttp(messageId: string): boolean {
    if (!this.#busy.has(messageId)) return false;
    for (const ids of this.#sentOnSocket.values()) if (ids.includes(messageId)) return false;
    return true;
  }

  #forget(messageId: string): void {
    this.#outbox.delete(messageId);
    this.#busy.delete(messageId);
  }

  #persist(): void {
    saveOutbox([...this.#outbox.values()]);
  }

  // ---- the socket

  #connect(): void {
    if (typeof WebSocket === 'undefined') return;
    this.#connectStartedAt = Date.now();
    let socket: WebSocket;
    try {
      socket = new WebSocket(`${this.#config.api.replace(/^http/, 'ws')}api/stream?key=${encodeURIComponent(this.#config.key)}`);
    } catch {
      this.#socketDown();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      this.#socketOpenedAt = Date.now();
      for (const subscriber of this.#subscribers) this.#sendSubscribe(subscriber);
      this.#flushSocket();
    };
    socket.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      try {
        this.#receive(JSON.parse(message.data) as ServerMessage);
      } catch (error) {
        console.warn('Pairwise: bad message from the service', error);
      }
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socketDown();
    };
  }

  /** The socket closed or never opened: what it carried goes back to the outbox, lists come over HTTP. */
  #socketDown(): void {
    this.#socket = undefined;
    for (const ids of this.#sentOnSocket.values()) for (const id of ids) this.#busy.delete(id);
    this.#sentOnSocket.clear();
    this.#subscribeRefs.clear();
    for (const subscriber of this.#subscribers) {
      subscriber.sub = undefined;
      if (!subscriber.answered) void this.#fetchList(subscriber);
    }
    // A socket that stayed up a while was healthy: start the backoff again.
    if (this.#socketOpenedAt > 0 && Date.now() - this.#socketOpenedAt > MAX_RETRY_MS) this.#retryMs = MIN_RETRY_MS;
    this.#socketOpenedAt = 0;
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = window.setTimeout(() => this.#connect(), this.#retryMs * (0.75 + Math.random() / 2));
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
    this.flush();
  }

  #reconnectNow(): void {
    if (this.#socket !== undefined) return;
    clearTimeout(this.#reconnectTimer);
    this.#retryMs = MIN_RETRY_MS;
    this.#connect();
  }

  #write(message: object): boolean {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  #sendSubscribe(subscriber: Subscriber): void {
    const ref = this.#nextRef++;
    this.#subscribeRefs.set(ref, subscriber);
    const after = loadPosition();
    this.#write({ op: 'subscribe', ref, query: after === undefined ? subscriber.query : { ...subscriber.query, after } });
  }

  #flushSocket(): void {
    const waiting = [...this.#outbox.values()].filter((event) => !this.#busy.has(event.messageId));
    for (const chunk of chunks(waiting)) {
      const ref = this.#nextRef++;
      const sent = chunk.length === 1 ? this.#write({ op: 'event', ref, event: chunk[0] }) : this.#write({ op: 'events', ref, events: chunk });
      if (!sent) return;
      const ids = chunk.map((event) => event.messageId);
      this.#sentOnSocket.set(ref, ids);
      for (const id of ids) this.#busy.add(id);
    }
  }

  #receive(message: ServerMessage): void {
    const ref = message.ref;
    if (message.op === 'recommendations') {
      const list = { products: message.products ?? [], meta: message.meta! };
      const subscriber = ref === undefined ? undefined : this.#subscribeRefs.get(ref);
      if (subscriber !== undefined) {
        this.#subscribeRefs.delete(ref!);
        subscriber.sub = message.sub;
      }
      // Identical queries share one server subscription: a push goes to every widget holding it.
      for (const s of this.#subscribers) if (s === subscriber || (ref === undefined && s.sub === message.sub)) deliver(s, list);
      return;
    }
    if (message.op === 'error' && message.sub !== undefined && message.error?.code === TOKEN_REFUSED) {
      // The server ended a live list whose customer token expired: the session's list instead.
      for (const s of this.#subscribers) {
        if (s.sub !== message.sub) continue;
        s.sub = undefined;
        this.#asSessionList(s);
        this.#sendSubscribe(s);
      }
      return;
    }
    if (ref === undefined) return;
    const subscriber = this.#subscribeRefs.get(ref);
    if (subscriber !== undefined) {
      // e.g. too_many_subscriptions: this widget gets its list once over HTTP.
      this.#subscribeRefs.delete(ref);
      void this.#fetchList(subscriber);
      return;
    }
    const ids = this.#sentOnSocket.get(ref);
    if (ids === undefined) return;
    this.#sentOnSocket.delete(ref);
    if (message.op === 'ack' || message.op === 'acks') notePosition(message.position);
    if (message.op === 'ack') ids.forEach((id) => this.#forget(id));
    else if (message.op === 'acks') this.#settle(ids, message.results ?? []);
    else if (message.op === 'error') {
      if (message.error?.code === TOKEN_REFUSED) {
        ids.forEach((id) => this.#asSession(id));
        this.#scheduleRetry();
      } else if (RETRYABLE.includes(message.error?.code ?? '')) {
        ids.forEach((id) => this.#busy.delete(id));
        this.#scheduleRetry();
      } else {
        console.warn('Pairwise: events refused', message.error);
        ids.forEach((id) => this.#forget(id));
      }
    }
    this.#persist();
  }

  /** Per-event results of a batch (socket acks or HTTP): accepted and duplicates are done. */
  #settle(ids: readonly string[], results: NonNullable<ServerMessage['results']>): void {
    let retry = false;
    for (const result of results) {
      const id = ids[result.index];
      if (id === undefined) continue;
      if (result.error?.code === TOKEN_REFUSED) {
        this.#asSession(id);
        retry = true;
      } else if (result.success || !RETRYABLE.includes(result.error?.code ?? '')) {
        if (!result.success) console.warn('Pairwise: event refused', result.error);
        this.#forget(id);
      } else {
        this.#busy.delete(id);
        retry = true;
      }
    }
    if (retry) this.#scheduleRetry();
  }

  /** The list is asked for again as the session's: the service refused its customer token. */
  #asSessionList(subscriber: Subscriber): void {
    delete subscriber.query.customerToken;
    delete subscriber.query.customerId;
    this.onTokenRefused();
  }

  /** The event goes again without its customer (same messageId): the service refused its token. */
  #asSession(id: string): void {
    const event = this.#outbox.get(id);
    if (event !== undefined) {
      delete event.customerId;
      delete event.customerToken;
    }
    this.#busy.delete(id);
    this.onTokenRefused();
  }

  #scheduleRetry(): void {
    window.setTimeout(() => this.flush(), this.#httpRetryMs);
    this.#httpRetryMs = Math.min(MAX_RETRY_MS, this.#httpRetryMs * 2);
  }

  // ---- HTTP

  #scheduleHttp(delayMs: number): void {
    if (this.#httpTimer !== undefined) return;
    this.#httpTimer = window.setTimeout(() => {
      this.#httpTimer = undefined;
      if (this.live) this.#flushSocket();
      else void this.#flushHttp();
    }, delayMs);
  }

  async #flushHttp(): Promise<void> {
    const batch = [...this.#outbox.values()].filter((event) => !this.#busy.has(event.messageId)).slice(0, MAX_BATCH);
    if (batch.length === 0) return;
    const ids = batch.map((event) => event.messageId);
    for (const id of ids) this.#busy.add(id);
    let ok = false;
    try {
      const response = await fetch(`${this.#config.api}api/events/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.#config.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: batch }),
        // The request outlives the page if the shopper navigates away meanwhile.
        keepalive: true,
      });
      if (response.ok) {
        const body = (await response.json()) as { results: NonNullable<ServerMessage['results']>; position?: string };
        this.#settle(ids, body.results);
        notePosition(body.position);
        ok = true;
      } else if (response.status >= 400 && response.status < 500) {
        const text = await response.text();
        // A 429 is retried, unless the shop's storefront budget for the day is spent (as over the socket).
        if (response.status !== 429 || text.includes('"storefront_quota"')) {
          console.warn('Pairwise: events refused', response.status, text);
          ids.forEach((id) => this.#forget(id));
          ok = true;
        }
      }
    } catch {
      // Offline or blocked: retried below.
    }
    if (ok) this.#httpRetryMs = MIN_RETRY_MS;
    else {
      ids.forEach((id) => this.#busy.delete(id));
      this.#scheduleRetry();
    }
    this.#persist();
    if (ok && [...this.#outbox.keys()].some((id) => !this.#busy.has(id))) this.flush();
  }

  async #fetchList(subscriber: Subscriber): Promise<void> {
    if (subscriber.closed || subscriber.answered) return;
    const params = new URLSearchParams();
    for (const name in subscriber.query) params.set(name, String(subscriber.query[name]));
    const after = loadPosition();
    if (after !== undefined) params.set('after', after);
    try {
      const response = await fetch(`${this.#config.api}api/recommendations?${params}`, { headers: { authorization: `Bearer ${this.#config.key}` } });
      if (response.status === 401 && (subscriber.query.customerToken !== undefined || subscriber.query.customerId !== undefined)) {
        // Its token was refused (expired on a cached page, say): the list of the session instead.
        this.#asSessionList(subscriber);
        return this.#fetchList(subscriber);
      }
      if (response.status === 400 && after !== undefined) {
        // A position this service does not know (its data was reset): asked again without it.
        forgetPosition();
        return this.#fetchList(subscriber);
      }
      if (!response.ok) {
        console.warn('Pairwise: recommendations refused', response.status, await response.text());
        return;
      }
      const list = (await response.json()) as RecommendationList;
      // A socket answer may have arrived meanwhile: it is at least as fresh.
      if (!subscriber.answered) deliver(subscriber, list);
    } catch (error) {
      console.warn('Pairwise: recommendations unavailable', error);
    }
  }
}

function deliver(subscriber: Subscriber, list: RecommendationList): void {
  if (subscriber.closed) return;
  subscriber.answered = true;
  subscriber.onList(list);
}

/** Splits events into batches the service and a beacon accept (≤ 100 events, ≤ ~60 KB). */
function chunks(events: readonly WireEvent[]): WireEvent[][] {
  const out: WireEvent[][] = [];
  let current: WireEvent[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = JSON.stringify(event).length + 1;
    if (current.length > 0 && (current.length >= MAX_BATCH || bytes + size > MAX_BEACON_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}
