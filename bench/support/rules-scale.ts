// bench/rules.ts's store-sized rows: what a relative filter and a shop's rules cost at store size,
// and whether another shop on the same server notices. One server process (rules-scale-server.ts)
// holds a store of BENCH_SCALE_PRODUCTS (100k) products and BENCH_SCALE_EVENTS (1M) events, and
// the demo store (the other shop). No two GETs of the store in a run ask the same (a distinct
// `exclude=`, naming no product): each answer is computed, as an attacker varying its requests
// gets; the other shop's repeat, as shoppers' do.
//   - by itself: the store's GET by product one after another, plain, with the 504-character
//     relative expression as `filters=`, and with 100 rules built from it: latency p50/p99, as
//     ratios to the plain GET's;
//   - next to an attacker: the other shop's GET at a steady 200 a second, in alternating 1-second
//     windows, quiet and busy: the store gets the filtered GET at 50 a second (what one address
//     may send), 2 purchases a second change all of 10 WebSocket connections' 20 subscriptions
//     each with the filter, or the store gets the GET its 100 rules match at 50 a second, in the busy ones.
//     The busy windows' p99 as a ratio to the quiet ones' (the same minutes, the same neighbours on
//     the machine); and the other shop alone once, before any of it.
import path from 'node:path';
import type { ScaleServerInfo, ScaleShop } from '../rules-scale-server.js';
import { ChildServer } from './child-server.js';
import { busyAt, cycling, pacedGets, pacedGetsByWindow, sequentialGets, type GetLatency, type PathOf, type Windows } from './latency-gets.js';
import { cpuSeconds } from './pairwise-node.js';
import type { Pinning } from './pinning.js';
import { subscribe } from './ws-subscribers.js';
import { PUSH_INTERVAL_MS } from '../../src/ws/subscriptions.js';

/** `NOT same:tag OR NOT same:tag OR … same:tag`: 504 characters of relative terms (it selects every product). */
export const RELATIVE_EXPRESSION = `${'NOT same:tag OR '.repeat(31)}same:tag`;

/** What one address may send a second (PAIRWISE_RATE_ADDRESS's default). */
const ATTACK_RATE = 50;
/** The other shop's steady GETs a second. */
const OTHER_RATE = 200;
const WS_CONNECTIONS = 10;
const WS_SUBSCRIPTIONS = 20;
const WS_EVENTS_PER_SECOND = 2;
const RULES = 100;

export interface ScaleRow {
  label: string;
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** This row's p50 (or p99) ÷ the p50 (p99) of the row it is compared with. */
  ratio?: number;
  ratioOf?: 'p50' | 'p99';
  comparedWith?: string;
  /** The issue's bar, in words, and whether this run met it. */
  target?: string;
  met?: boolean;
  /** The server process's CPU seconds during the row. */
  serverCpuSeconds: number;
  note?: string;
}

export interface ScaleRun {
  products: number;
  events: number;
  fillSeconds: number;
  rows: ScaleRow[];
}

/** GETs by product of the store, each one its own (`exclude=` a different id that names no product). */
class StoreGets {
  #sent = 0;

  constructor(readonly ids: readonly string[]) {}

  byProduct(filter?: string): PathOf {
    const tail = `&limit=8${filter === undefined ? '' : `&filters=${encodeURIComponent(filter)}`}`;
    return (i) => `/api/recommendations?productId=${encodeURIComponent(this.ids[i % this.ids.length]!)}&exclude=none-${this.#sent++}${tail}`;
  }
}

/** The other shop's GETs: its products (bought-together and similar) and trending. */
function otherPaths(other: ScaleShop): PathOf {
  return cycling(other.productIds.flatMap((id) => [
    `/api/recommendations?productId=${encodeURIComponent(id)}&limit=8`,
    `/api/recommendations?productId=${encodeURIComponent(id)}&strategy=similar&limit=8`,
    '/api/recommendations?strategy=trending&limit=8',
  ]));
}

/**
 * The 100 rules: each with the expression as its context filter, filter and 8 boosts, and `hide`
 * as its hide: the expression itself hides every product (answers come back empty, after the
 * chain looked everywhere), `NOT (…)` of it hides none (answers stay full, every candidate is
 * tested and boosted).
 */
function scaleRules(hide: string): { id: string; body: Record<string, unknown> }[] {
  return Array.from({ length: RULES }, (_, r) => ({
    id: `scale-${String(r).padStart(3, '0')}`,
    body: {
      when: { context: RELATIVE_EXPRESSION },
      then: { filter: RELATIVE_EXPRESSION, hide, boost: Array.from({ length: 8 }, () => ({ filter: RELATIVE_EXPRESSION, factor: 2 })) },
    },
  }));
}

async function call(base: string, key: string, method: string, route: string, body: unknown, expect: number[]): Promise<Record<string, unknown>> {
  const res = await fetch(base + route, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function measureAtScale(pinning: Pinning, seconds: number, progress: (line: string) => void): Promise<ScaleRun> {
  const here = path.dirname(new URL(import.meta.url).pathname);
  progress('store-sized rows: filling the store in the server (about a minute per million events on a 2-core box)…');
  const server = await ChildServer.start('rules-scale-server', path.join(here, '..', 'rules-scale-server.js'), {}, pinning, ['--max-old-space-size=16384'], 1_800_000);
  try {
    const info = server.info as unknown as ScaleServerInfo;
    const { store, other } = info;
    progress(`  store: ${store.products} products, ${store.events} events (filled in ${store.fillSeconds.toFixed(0)} s); other shop: ${other.products} products`);
    const storeHeaders = { authorization: `Bearer ${store.publicKey}` };
    const otherHeaders = { authorization: `Bearer ${other.publicKey}` };
    const gets = new StoreGets(store.productIds);
    const rows: ScaleRow[] = [];
    const record = (label: string, result: GetLatency, cpu: number, extra: Partial<ScaleRow> = {}): ScaleRow => {
      const made: ScaleRow = { label, requests: result.requests, failures: result.failures, p50Ms: result.p50Ms, p99Ms: result.p99Ms, maxMs: result.maxMs, serverCpuSeconds: cpu, ...extra };
      progress(`    ${label}: ${made.requests} requests (${made.failures} failed), p50 ${made.p50Ms.toFixed(2)} ms, p99 ${made.p99Ms.toFixed(2)} ms${made.ratio === undefined ? '' : `, ratio ${made.ratio.toFixed(2)}`}`);
      rows.push(made);
      return made;
    };
    const cpuOf = async <T>(run: () => Promise<T>): Promise<{ result: T; cpu: number }> => {
      const before = cpuSeconds(server.child.pid);
      const result = await run();
      return { result, cpu: cpuSeconds(server.child.pid) - before };
    };
    /** The store's GETs one after another; its p50 (or p99) against `compared`'s. */
    const storeRow = async (label: string, filter: string | undefined, compared?: ScaleRow): Promise<ScaleRow> => {
      progress(`  ${label}…`);
      const { result, cpu } = await cpuOf(() => sequentialGets(server.url, gets.byProduct(filter), storeHeaders, seconds));
      const note = `${((cpu / result.requests) * 1e6).toFixed(0)} µs of server CPU a GET`;
      const ratio = compared === undefined ? {} : { ratio: result.p50Ms / compared.p50Ms, ratioOf: 'p50' as const, comparedWith: compared.label };
      return record(label, result, cpu, { ...ratio, note });
    };
    /**
     * The other shop's GETs for 2 × `seconds` in alternating 1-second windows, `attack` busy in
     * every other one (it is handed the windows): the busy windows' p99 against the quiet ones'.
     */
    const besideAttack = async (label: string, attack: (windows: Windows) => Promise<void>, note?: () => string, windowMs = 1000): Promise<void> => {
      progress(`  other shop: GET at ${OTHER_RATE}/s, ${label}…`);
      const windows: Windows = { epoch: performance.now(), ms: windowMs };
      const { result, cpu } = await cpuOf(() => Promise.all([pacedGetsByWindow(server.url, otherPaths(other), otherHeaders, OTHER_RATE, 2 * seconds, windows), attack(windows)]));
      const { quiet, busy } = result[0];
      const quietRow = record(`other shop: GET at ${OTHER_RATE}/s, quiet windows`, quiet, NaN);
      record(`other shop: GET at ${OTHER_RATE}/s, busy windows: ${label}`, busy, cpu, {
        ratio: busy.p99Ms / quiet.p99Ms,
        ratioOf: 'p99',
        comparedWith: quietRow.label,
        target: 'p99 ≤ 2× the quiet windows\' p99',
        met: busy.p99Ms <= 2 * quiet.p99Ms,
        ...(note === undefined ? {} : { note: note() }),
      });
    };
    /** The store's GET at ATTACK_RATE, in the busy windows. */
    const storeAttack = (filter?: string) => async (windows: Windows) => {
      await pacedGets(server.url, gets.byProduct(filter), storeHeaders, ATTACK_RATE, 2 * seconds, { onlyBusyIn: windows });
    };

    // Unmeasured: the first answers of each kind (lazy per-product work, the JIT).
    await sequentialGets(server.url, gets.byProduct(), storeHeaders, 2);
    await sequentialGets(server.url, gets.byProduct(RELATIVE_EXPRESSION), storeHeaders, 2);
    await pacedGets(server.url, otherPaths(other), otherHeaders, OTHER_RATE, 2);

    const probe = await call(server.url, store.publicKey, 'GET', gets.byProduct(RELATIVE_EXPRESSION)(0), undefined, [200]);
    if ((probe.meta as { count: number }).count === 0) throw new Error('the expression, which selects every product, left an answer empty');
    const plain = await storeRow('store: GET by product, plain', undefined);
    const filtered = await storeRow('store: GET by product, filters= the 504-char relative expression', RELATIVE_EXPRESSION, plain);
    Object.assign(filtered, { target: 'p50 ≤ 2× the plain GET\'s', met: filtered.ratio! <= 2 });

    progress(`  other shop alone…`);
    const alone = await cpuOf(() => pacedGets(server.url, otherPaths(other), otherHeaders, OTHER_RATE, seconds));
    record(`other shop: GET at ${OTHER_RATE}/s, alone`, alone.result, alone.cpu);
    await besideAttack(`the store gets the filtered GET at ${ATTACK_RATE}/s`, storeAttack(RELATIVE_EXPRESSION));

    // Every subscription is about the same product, each its own query (its own `exclude=`), and
    // each purchase of that product or of another in the same basket changes its pair row, which
    // every one of them read: a purchase costs 200 lists computed again.
    const [watched, paired] = store.productIds;
    progress(`  opening ${WS_CONNECTIONS} WebSocket connections × ${WS_SUBSCRIPTIONS} subscriptions with the filter…`);
    const subscribers = await subscribe(
      `ws://127.0.0.1:${server.port}/api/stream?key=${store.publicKey}`,
      Array.from({ length: WS_CONNECTIONS }, (_, c) =>
        Array.from({ length: WS_SUBSCRIPTIONS }, (_, k) => ({ productId: watched!, exclude: `none-ws-${c * WS_SUBSCRIPTIONS + k}`, filters: RELATIVE_EXPRESSION, limit: 8 })),
      ),
    );
    try {
      let purchases = 0;
      await besideAttack(
        `the store has ${WS_CONNECTIONS}×${WS_SUBSCRIPTIONS} filtered subscriptions, ${WS_EVENTS_PER_SECOND} purchases/s change them all`,
        async (windows) => {
          const sent: Promise<unknown>[] = [];
          const timer = setInterval(() => {
            // Only in a busy window's first second: a subscription recomputed at most once a second
            // runs its last recompute within the window, not in the quiet one after it.
            const now = performance.now();
            if (!busyAt(windows, now) || (now - windows.epoch) % windows.ms >= windows.ms - PUSH_INTERVAL_MS) return;
            const productId = purchases++ % 2 === 0 ? watched! : paired!;
            sent.push(call(server.url, store.publicKey, 'POST', '/api/events', { type: 'purchase', productId, sessionId: 'ws-bench-buyer' }, [200]));
          }, 1000 / WS_EVENTS_PER_SECOND);
          await new Promise((resolve) => setTimeout(resolve, 2 * seconds * 1000));
          clearInterval(timer);
          await Promise.all(sent);
        },
        () => `${purchases} purchases, ${subscribers.pushes} lists pushed`,
        2 * PUSH_INTERVAL_MS,
      );
    } finally {
      subscribers.close();
    }

    /** Puts the rules, then waits (after=) until the server applied them; `count`: how many products an answer then holds. */
    const putRules = async (hide: string, count: (n: number) => boolean) => {
      progress(`  putting ${RULES} rules built from the expression…`);
      let position = '';
      for (const { id, body } of scaleRules(hide)) position = String((await call(server.url, store.secretKey, 'PUT', `/api/rules/${id}`, body, [200, 201])).position);
      const answer = await call(server.url, store.publicKey, 'GET', `${gets.byProduct()(0)}&after=${encodeURIComponent(position)}`, undefined, [200]);
      const held = (answer.meta as { count: number }).count;
      if (!count(held)) throw new Error(`with the rules hiding ${hide.slice(0, 40)}…, an answer holds ${held} products`);
      await sequentialGets(server.url, gets.byProduct(), storeHeaders, 1);
    };
    const rulesRow = async (label: string) => {
      const ruled = await storeRow(label, undefined, plain);
      Object.assign(ruled, { target: 'p99 ≤ 10 ms', met: ruled.p99Ms <= 10 });
    };
    await putRules(`NOT (${RELATIVE_EXPRESSION})`, (n) => n > 0);
    await rulesRow(`store: GET by product, ${RULES} rules hiding NOT (the expression): full answers`);
    await putRules(RELATIVE_EXPRESSION, (n) => n === 0);
    await rulesRow(`store: GET by product, ${RULES} rules hiding the expression: every product hidden`);
    // Last: on a server where these rules cost a pass over the catalog per filter, it is busy long after.
    await besideAttack(`the store gets the GET its ${RULES} rules match at ${ATTACK_RATE}/s`, storeAttack());
    return { products: store.products, events: store.events, fillSeconds: store.fillSeconds, rows };
  } finally {
    await server.stop();
  }
}

export function scaleTable(rows: readonly ScaleRow[]): string {
  const header = ['row', 'requests', 'p50 ms', 'p99 ms', 'ratio', 'target', 'server CPU s', 'notes'];
  const body = rows.map((r) => [
    r.label,
    `${r.requests}${r.failures > 0 ? ` (${r.failures} failed)` : ''}`,
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.ratio === undefined ? '-' : `${r.ratio.toFixed(2)} (${r.ratioOf})`,
    r.target === undefined ? '' : `${r.target}: ${r.met ? 'met' : 'NOT met'}`,
    Number.isNaN(r.serverCpuSeconds) ? '' : r.serverCpuSeconds.toFixed(1),
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 1 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
