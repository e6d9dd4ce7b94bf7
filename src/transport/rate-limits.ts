// The service's rate limits (docs/api.md, "Rate limits"), so that one shop's flood never slows
// another shop's answers: token buckets per client address and per API key (limits/), which
// requests are charged to which, and the 429 answers: problem+json `rate_limited` with Retry-After
// and the RateLimit / RateLimit-Policy fields of draft-ietf-httpapi-ratelimit-headers-11.
// Shared by the REST routes and GET /api/stream (which adds a bucket per connection). A client is
// its TCP peer, or whom a trusted proxy says it forwards for (limits/proxied-client.ts).
import type { HttpResponse } from 'uWebSockets.js';
import type { RateConfig, RateLimitConfig } from '../config.js';
import { AppError, type ErrorCode } from '../errors.js';
import { BucketTable } from '../limits/bucket-table.js';
import { bucketKeyOf, isLoopback, uwsForms } from '../limits/client-address.js';
import { resolveClient } from '../limits/proxied-client.js';
import { monotonicNow, type MonotonicClock, type MonotonicMs } from '../limits/monotonic-clock.js';
import { BucketRate } from '../limits/token-bucket.js';
import { TrustedProxies } from '../limits/trusted-proxies.js';
import type { KeyResolver, Principal } from '../app/principal.js';
import { authenticate, authorize, presentedKey, type KeyNeeded } from './auth.js';
import type { RequestInfo } from './exchange.js';

/** Policy names, as the RateLimit fields and the WebSocket error details call them. */
export type Policy = 'address' | 'public-key' | 'secret-key' | 'socket' | 'address-new-sessions' | 'shop-new-sessions' | 'address-sign-ins';

export const POLICIES: readonly Policy[] = ['address', 'public-key', 'secret-key', 'socket', 'address-new-sessions', 'shop-new-sessions', 'address-sign-ins'];

/** Refusals with a wait up to this many whole seconds are made once and reused. */
const CACHED_SECONDS = 60;

/** One limit: its bucket shape and its refusals, made once per whole second of wait and then rethrown. */
export class Limit {
  readonly rate: BucketRate;
  readonly detail: string;
  /** A refused WebSocket operation's error (its wait goes beside it, in ms). */
  readonly opError: AppError;
  readonly #policyField: string;
  readonly #errors: AppError[] = [];

  constructor(
    readonly policy: Policy,
    config: RateConfig,
    subject: string,
    unit: string,
    /** Its refusals' code; a rate given per minute is told per minute (`w=60`). */
    readonly code: ErrorCode = 'rate_limited',
    window: 'second' | 'minute' = 'second',
  ) {
    this.rate = new BucketRate(config.perSecond, config.burst);
    const w = window === 'second' ? 1 : 60;
    const q = Math.round(config.perSecond * w);
    this.detail = `${subject} may make ${q} ${unit} a ${window} (bursts of ${config.burst})`;
    this.opError = new AppError(code, this.detail);
    // The draft's fields are structured-field lists: a quoted policy name, then parameters. q per w seconds
    // is the sustained rate; the burst is a vendor-prefixed parameter, which the draft allows as a comment.
    this.#policyField = `"${policy}";q=${q};w=${w};pairwise-burst=${config.burst}`;
  }

  /** The 429 for a wait of `waitMs`: Retry-After in whole seconds, and the RateLimit fields saying none is left. */
  error(waitMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const cached = this.#errors[seconds];
    if (cached !== undefined) return cached;
    const error = new AppError(this.code, `${this.detail}; retry after ${seconds} s`, undefined, {
      'retry-after': String(seconds),
      ratelimit: `"${this.policy}";r=0;t=${seconds}`,
      'ratelimit-policy': this.#policyField,
      // A browser's script may read these only when exposed (CORS safelists none of them).
      'access-control-expose-headers': 'Retry-After, RateLimit, RateLimit-Policy',
    });
    if (seconds <= CACHED_SECONDS) this.#errors[seconds] = error;
    return error;
  }
}

function limit(policy: Policy, config: RateConfig, subject: string, unit: string, code?: ErrorCode, window?: 'second' | 'minute'): Limit | undefined {
  return config.perSecond > 0 ? new Limit(policy, config, subject, unit, code, window) : undefined;
}

const REQUESTS_OR_OPS = 'requests or WebSocket operations';
/** What the storefront's buckets count: each event of a write is a token. */
const REQUESTS_OPS_EVENTS = 'requests, WebSocket operations and events';

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export interface RateLimitStats {
  /** Requests, WebSocket operations, new sessions and dashboard sign-ins refused since start, by the policy that refused them. */
  refused: Readonly<Record<Policy, number>>;
  /** Buckets held (each table is capped at maxEntries). */
  addressBuckets: number;
  keyBuckets: number;
  /** New-session buckets: client addresses and shops. */
  newSessionBuckets: number;
  /** Dashboard sign-in buckets, by client address. */
  signInBuckets: number;
}

export class RateLimits {
  readonly address: Limit | undefined;
  readonly publicKey: Limit | undefined;
  readonly secretKey: Limit | undefined;
  /** Operations per WebSocket connection (its bucket lives on the connection). */
  readonly socket: Limit | undefined;
  /** New sessions per client address, and per shop (its public keys together). */
  readonly newSessionsPerAddress: Limit | undefined;
  readonly newSessionsPerShop: Limit | undefined;
  /** Dashboard sign-in attempts per client address: a bound of their own, apart from the address's API budget. */
  readonly signInsPerAddress: Limit | undefined;
  readonly #addresses: BucketTable;
  readonly #keys: BucketTable;
  readonly #sessionAddresses: BucketTable;
  readonly #sessionShops: BucketTable;
  readonly #signIns: BucketTable;
  readonly #exemptLoopback: boolean;
  readonly #exempt: ReadonlySet<string>;
  readonly #trusted: TrustedProxies;
  /**
   * No client is ever limited: limits off, or a loopback-only listener with loopback exempt and no
   * trusted proxy (a proxy on loopback forwards for clients that are not).
   */
  readonly #off: boolean;
  readonly #decoder = new TextDecoder();
  readonly #refused = Object.fromEntries(POLICIES.map((policy) => [policy, 0])) as Record<Policy, number>;

  constructor(
    config: RateLimitConfig,
    listenHost: string,
    /** PAIRWISE_TRUSTED_PROXIES, validated by config.ts. */
    trustedProxies: readonly string[],
    /** Every bucket's time (performance.now()); tests inject a fake. */
    readonly clock: MonotonicClock = monotonicNow,
  ) {
    this.address = limit('address', config.address, 'this client address', REQUESTS_OPS_EVENTS);
    this.publicKey = limit('public-key', config.publicKey, 'this public key', REQUESTS_OPS_EVENTS);
    this.secretKey = limit('secret-key', config.secretKey, 'this secret key', REQUESTS_OR_OPS);
    this.socket = limit('socket', config.socket, 'this connection', 'operations and events');
    this.newSessionsPerAddress = limit('address-new-sessions', config.newSessionsPerAddress, 'this client address', 'new sessions', 'too_many_new_sessions', 'minute');
    this.newSessionsPerShop = limit('shop-new-sessions', config.newSessionsPerShop, "this shop's public keys", 'new sessions', 'too_many_new_sessions', 'minute');
    this.signInsPerAddress = limit('address-sign-ins', config.signInsPerAddress, 'this client address', 'dashboard sign-in attempts', 'rate_limited', 'minute');
    this.#addresses = new BucketTable(config.maxEntries);
    this.#keys = new BucketTable(config.maxEntries);
    this.#sessionAddresses = new BucketTable(config.maxEntries);
    this.#sessionShops = new BucketTable(config.maxEntries);
    this.#signIns = new BucketTable(config.maxEntries);
    this.#exemptLoopback = config.exemptLoopback;
    this.#exempt = new Set(config.exemptAddresses.flatMap((address) => uwsForms(address) ?? []));
    this.#trusted = new TrustedProxies(trustedProxies);
    const anyLimit = [this.address, this.publicKey, this.secretKey, this.socket, this.newSessionsPerAddress, this.newSessionsPerShop, this.signInsPerAddress].some((l) => l !== undefined);
    this.#off = !config.enabled || !anyLimit || (config.exemptLoopback && isLoopbackHost(listenHost) && this.#trusted.empty);
  }

  /** Whether clientOf reads a request's Forwarded / X-Forwarded-For: readRequest must then fill them in. */
  get readsForwarded(): boolean {
    return !this.#off && !this.#trusted.empty;
  }

  /**
   * The bucket key of the client of `res` and `request`, or undefined when it is not limited (limits
   * off, exempt). Call it inside the uWS callback, before any await: `res` may be gone after.
   */
  clientOf(res: HttpResponse, request: RequestInfo): string | undefined {
    if (this.#off) return undefined;
    const peer = this.#decoder.decode(res.getRemoteAddressAsText());
    const address = resolveClient(peer, request.forwarded, request.forwardedFor, this.#trusted);
    // A trusted proxy passed on a header that names no client: its client may have written it to be
    // taken for the proxy, so the request counts against the proxy's address, which no exemption covers.
    if (address === undefined) return bucketKeyOf(peer);
    if ((this.#exemptLoopback && isLoopback(address)) || this.#exempt.has(address)) return undefined;
    return bucketKeyOf(address);
  }

  /**
   * Authenticates a request (or WebSocket upgrade) of `client` and charges it: to the address unless
   * it carries a secret key, then to the key. Throws 401/403, or 429 when a bucket is empty; a request
   * its address refuses takes nothing from the key, so one client cannot empty a key for everyone.
   */
  admit(client: string | undefined, request: RequestInfo, resolve: KeyResolver, needed: KeyNeeded): Principal {
    if (client === undefined) return authenticate(request, resolve, needed);
    const key = presentedKey(request);
    const now = this.clock();
    // A secret key is a merchant's server, which may call for many shoppers from one address: only
    // the key is limited, and the address only when the key turns out not to be one.
    const secret = key !== undefined && key.startsWith('sk_');
    if (!secret) this.#charge(this.address, this.#addresses, client, now);
    let principal: Principal;
    try {
      principal = authorize(key, request, resolve, needed);
    } catch (error) {
      if (secret) this.#charge(this.address, this.#addresses, client, now);
      throw error;
    }
    this.#charge(this.keyLimit(principal.kind), this.#keys, key!, now);
    return principal;
  }

  keyLimit(kind: Principal['kind']): Limit | undefined {
    return kind === 'public' ? this.publicKey : this.secretKey;
  }

  /** 0 when `key`'s bucket had a token at `now` and `cost` were taken, else the ms until it has (nothing taken; counted as refused). */
  takeKey(key: string, kind: Principal['kind'], now: MonotonicMs, cost = 1): number {
    return this.#take(this.keyLimit(kind), this.#keys, key, now, cost);
  }

  /** As takeKey, for a client's address bucket. */
  takeAddress(client: string, now: MonotonicMs, cost = 1): number {
    return this.#take(this.address, this.#addresses, client, now, cost);
  }

  /**
   * Charges the rest of a public-key request that carries `events` events (admit took one token): one
   * token per event from its address's and its key's buckets, whatever they hold, so a batch of 100
   * costs what 100 single events do. A secret key (a merchant's server) and an unlimited client are not charged.
   */
  chargeEvents(client: string | undefined, request: RequestInfo, principal: Principal, events: number): void {
    if (client === undefined || principal.kind !== 'public' || events <= 1) return;
    const now = this.clock();
    if (this.address !== undefined) this.#addresses.charge(client, this.address.rate, now, events - 1);
    if (this.publicKey !== undefined) this.#keys.charge(presentedKey(request)!, this.publicKey.rate, now, events - 1);
  }

  /**
   * Charges one new session of a public-key event from `client` (a key clientOf gave) to its address,
   * then to its shop: the refusal (429 too_many_new_sessions with Retry-After) or undefined. One its
   * address refuses takes nothing from the shop's, so one client cannot use up a shop's new sessions.
   */
  takeNewSession(client: string, shopId: string, now: MonotonicMs = this.clock()): AppError | undefined {
    let wait = this.#take(this.newSessionsPerAddress, this.#sessionAddresses, client, now);
    if (wait > 0) return this.newSessionsPerAddress!.error(wait);
    wait = this.#take(this.newSessionsPerShop, this.#sessionShops, shopId, now);
    return wait > 0 ? this.newSessionsPerShop!.error(wait) : undefined;
  }

  /** Whether any bound on new sessions is on (per address or per shop). */
  get boundsNewSessions(): boolean {
    return this.newSessionsPerAddress !== undefined || this.newSessionsPerShop !== undefined;
  }

  /** Charges one dashboard sign-in attempt of `client` (a key clientOf gave): the refusal (429 with Retry-After) or undefined. */
  takeSignIn(client: string, now: MonotonicMs): AppError | undefined {
    const wait = this.#take(this.signInsPerAddress, this.#signIns, client, now);
    return wait > 0 ? this.signInsPerAddress!.error(wait) : undefined;
  }

  /** Counts a refusal decided elsewhere (a connection's own bucket). */
  countRefusal(policy: Policy): void {
    this.#refused[policy]++;
  }

  stats(): RateLimitStats {
    return {
      refused: { ...this.#refused },
      addressBuckets: this.#addresses.size,
      keyBuckets: this.#keys.size,
      newSessionBuckets: this.#sessionAddresses.size + this.#sessionShops.size,
      signInBuckets: this.#signIns.size,
    };
  }

  #take(limit: Limit | undefined, table: BucketTable, bucketKey: string, now: MonotonicMs, cost = 1): number {
    if (limit === undefined) return 0;
    const wait = table.take(bucketKey, limit.rate, now, cost);
    if (wait > 0) this.#refused[limit.policy]++;
    return wait;
  }

  #charge(limit: Limit | undefined, table: BucketTable, bucketKey: string, now: MonotonicMs): void {
    const wait = this.#take(limit, table, bucketKey, now);
    if (wait > 0) throw limit!.error(wait);
  }
}
