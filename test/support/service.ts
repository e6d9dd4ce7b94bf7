// Starts the real service in-process on port 0 with a temp LMDB dir and a shop with known keys.
import { expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { monotonicMs } from '../../src/limits/monotonic-clock.js';
import { startService, type RunningService } from '../../src/service.js';
import { generateSigningSecret, mintCustomerToken } from '../../src/api/customer-token.js';
import type { Committer } from '../../src/store/durable-commit.js';
import type { EngineConfig } from '../../src/engine/engine-config.js';
import { generateKey } from '../../src/store/shop-store.js';
import type { Log } from '../../src/observability/log.js';

export interface TestShop {
  shopId: string;
  publicKey: string;
  secretKey: string;
  /** The shop's customer-token signing secret (PAIRWISE_SIGNING_SECRET). */
  signingSecret: string;
}

export interface TestService {
  readonly url: string;
  readonly service: RunningService;
  readonly dataDir: string;
  readonly shop: TestShop;
  /** fetch against the service with a key (default: the shop's public key). */
  fetch(pathAndQuery: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  /** Stops the service; the data dir stays until cleanup(). */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export function newShop(shopId = 'shop-a'): TestShop {
  return { shopId, publicKey: generateKey('public'), secretKey: generateKey('secret'), signingSecret: generateSigningSecret() };
}

/** A customer token for the shop, valid for an hour after `nowMs` (the service's clock). */
export function customerToken(shop: TestShop, customerId: string, nowMs = Date.now()): string {
  return mintCustomerToken(shop.signingSecret, shop.shopId, customerId, Math.floor(nowMs / 1000) + 3600);
}

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'pairwise-test-'));
}

export interface StartOptions {
  dataDir?: string;
  shop?: TestShop;
  env?: Record<string, string>;
  clock?: () => number;
  /** Monotonic ms for the rate limits (default performance.now()). */
  monotonic?: () => number;
  /** How the service commits to LMDB (see commit-control.ts). */
  committer?: Committer;
  /** Engine settings no environment variable sets (a small shopper table, to evict). */
  engine?: Partial<EngineConfig>;
  /** Where the service's log goes (test/support/log-lines.ts keptLog); nowhere by default. */
  log?: Log;
  /** Other settings no environment variable sets (the request bodies' caps). */
  config?: Partial<Omit<Config, 'engine'>>;
}

export function testEnv(dataDir: string, shop: TestShop, env: Record<string, string> = {}): Record<string, string> {
  return {
    PAIRWISE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PAIRWISE_DEMO: '0',
    // One process unless a test asks for more (the default is one per core).
    PAIRWISE_SERVERS: '1',
    PAIRWISE_SHOP: shop.shopId,
    PAIRWISE_PUBLIC_KEY: shop.publicKey,
    PAIRWISE_SECRET_KEY: shop.secretKey,
    PAIRWISE_SIGNING_SECRET: shop.signingSecret,
    ...env,
  };
}

/** A service whose rate limits apply to loopback clients too (tests connect from chosen 127.x addresses), its buckets on `monotonic`. */
export function startRateLimited(env: Record<string, string>, monotonic: () => number): Promise<TestService> {
  return startTestService({ env: { PAIRWISE_RATE_LIMIT_EXEMPT: '', ...env }, monotonic });
}

export async function startTestService(options: StartOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? tempDataDir();
  const shop = options.shop ?? newShop();
  const loaded = loadConfig(testEnv(dataDir, shop, options.env));
  const config: Config = { ...loaded, ...options.config, engine: { ...loaded.engine, ...options.engine } };
  const fake = options.monotonic;
  const monotonic = fake === undefined ? undefined : () => monotonicMs(fake());
  const service = await startService(config, { clock: options.clock, monotonic, committer: options.committer, log: options.log ?? (() => {}) });
  const url = `http://127.0.0.1:${service.port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await service.stop();
  };
  return {
    url,
    service,
    dataDir,
    shop,
    fetch(pathAndQuery, init = {}) {
      const { key = shop.publicKey, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${key}`);
      if (rest.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(url + pathAndQuery, { ...rest, headers });
    },
    stop,
    async cleanup() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A catalog product in wire form with sensible defaults. */
export function wireProduct(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, title: `Product ${id}`, price: '10.00', vendor: 'Acme', collections: ['c1'], tags: [], ...overrides };
}

export async function putProducts(t: TestService, products: Record<string, unknown>[]): Promise<void> {
  const res = await t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products }) });
  if (res.status !== 200) throw new Error(`PUT /api/products ${res.status}: ${await res.text()}`);
}

export async function postEvents(t: TestService, events: Record<string, unknown>[], key?: string): Promise<unknown> {
  const res = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events }), ...(key ? { key } : {}) });
  if (res.status !== 200) throw new Error(`POST /api/events/batch ${res.status}: ${await res.text()}`);
  return res.json();
}

export interface RecommendationBody {
  products: { id: string; title: string; score: number; strategy: string; [k: string]: unknown }[];
  meta: { strategy: string; modelLevel: number; count: number; [k: string]: unknown };
}

/** A recId as the server mints them (analytics/rec-id.ts). */
export const REC_ID = /^rec_[bstpcr]_(0_0|[1-9a-z][0-9a-z]{0,2}_[1-9a-f])_[0-9a-z]+$/;

/**
 * The answer's body with its meta.recId checked and taken out: every delivery gets a fresh one, so
 * answers compared with each other (restarts, caches, pushes) are compared without it.
 */
export function withoutRecId<T extends { meta: Record<string, unknown> }>(body: T): T {
  const { recId, ...meta } = body.meta;
  if (typeof recId !== 'string' || !REC_ID.test(recId)) throw new Error(`meta.recId is not a recId: ${JSON.stringify(recId)}`);
  return { ...body, meta };
}

/** GET /api/recommendations; the body without its recId (see withoutRecId). */
export async function recommendations(t: TestService, query: string, key?: string): Promise<RecommendationBody> {
  const res = await t.fetch(`/api/recommendations?${query}`, key ? { key } : {});
  if (res.status !== 200) throw new Error(`GET /api/recommendations?${query} ${res.status}: ${await res.text()}`);
  return withoutRecId((await res.json()) as RecommendationBody);
}

/** Bare ids of a recommendation answer, in order. */
export function ids(body: RecommendationBody): string[] {
  return body.products.map((p) => p.id.replace(/^gid:\/\/[^/]+\/Product\//, ''));
}

/** Any write acknowledgement's position (api/position-token.ts): the log id, a dot, the position in base 36. */
export const ANY_POSITION = expect.stringMatching(/^[a-z0-9]{8}\.[0-9a-z]{1,11}$/);
