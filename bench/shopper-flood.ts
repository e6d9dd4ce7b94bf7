// Two floods a holder of a shop's public key can send (issue "Hard edges", rows 1 and 7), each through
// the real service in its own process with rate limits on and 127.0.0.1 as its trusted proxy (the
// clients are named by X-Forwarded-For):
// (a) row 1, sessions evicting shoppers: BENCH_FLOOD_EVENTS (200k) view events, each with a new
//     sessionId, from one client address (BENCH_FLOOD_ADDRESSES: that many, batch by batch, as a
//     botnet would) at BENCH_FLOOD_RPS (50) batch requests of 100 a second (the address and key rates, which count events, raised above it), while a logged-in customer's personalized answer is asked before, about
//     every two seconds during, and after. Twice: with the bound on new sessions at its defaults, and
//     with it off (the session pool alone: 200k new sessions through a pool of 100k). The result: is
//     the customer's answer identical throughout, and how many flood events the bound refused.
// (b) row 7, one client emptying a key's bucket: a flooder at X-Forwarded-For A sends GETs with the
//     public key on BENCH_PROXY_FLOOD_CONNECTIONS (16) connections for BENCH_SECONDS, while a shopper at
//     B asks for a list and sends an event every 500 ms: both success rates. Baseline in the same run:
//     the same without PAIRWISE_TRUSTED_PROXIES (every request is the proxy's address, as before).
// EASE refits are off in (a): a refit installs a new fit mid-flood, changing the answer for a reason
// that is not eviction.
//   npm run bench:shopper-flood   (BENCH_FLOOD_EVENTS, BENCH_FLOOD_RPS, BENCH_FLOOD_ADDRESSES, BENCH_SECONDS, BENCH_PROXY_FLOOD_CONNECTIONS)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildServer } from './support/child-server.js';
import { EVENTS_BATCH, EVENTS_PER_BATCH } from './support/http-workload.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { environment, writeResults } from './support/report.js';
import { benchSettings, integerSetting } from './support/settings.js';
import type { ServiceInfo } from './support/workload-sample.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const progress = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const FLOODER = '203.0.113.7';
const SHOPPER = '198.51.100.9';
const CUSTOMER = 'bench-customer-1';
const BASE_ENV = { BENCH_SERVICE_MODE: 'bootstrap', PAIRWISE_RATE_LIMITS: '1', PAIRWISE_RATE_LIMIT_EXEMPT: 'loopback' };

interface Answer {
  level: number;
  /** The items the customer's own history chose, in order. */
  personalized: string[];
}

interface FloodResult {
  bound: 'default' | 'off';
  events: number;
  /** Events stored; refused one by one as new sessions over the bound; in requests refused whole (429 rate_limited). */
  accepted: number;
  refusedNewSessions: number;
  refusedRequests: number;
  seconds: number;
  before: Answer;
  checks: number;
  identical: boolean;
  changed: Answer[];
  shoppers: { customers: number; sessions: number };
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** The customer's personalized answer, asked with the secret key (not limited by address). */
async function customerAnswer(url: string, info: ServiceInfo): Promise<Answer> {
  const body = await json<{ products: { id: string; strategy: string }[]; meta: { modelLevel: number } }>(
    await fetch(`${url}/api/recommendations?strategy=personalized&customerId=${CUSTOMER}&limit=8`, { headers: { authorization: `Bearer ${info.secretKey}` } }),
  );
  return { level: body.meta.modelLevel, personalized: body.products.filter((p) => p.strategy === 'personalized').map((p) => p.id) };
}

/** A logged-in customer's history, sent by the merchant's server: purchases and views of sample products. */
async function giveHistory(url: string, info: ServiceInfo): Promise<void> {
  const ids = info.sample.productIds;
  const events = [0, 1, 2, 3, 4, 5].map((i) => ({ type: i < 3 ? 'purchase' : 'view', productId: ids[i]!, sessionId: 'bench-customer-session', customerId: CUSTOMER }));
  await json(await fetch(url + EVENTS_BATCH, { method: 'POST', headers: { authorization: `Bearer ${info.secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ events }) }));
}

/** (a): the flood of new sessions, paced at `rps` batch requests a second, the customer's answer checked along the way. */
async function sessionFlood(bound: 'default' | 'off', events: number, rps: number, addresses: number): Promise<FloodResult> {
  // The rate limits count events: the address's and the key's are raised above the flood's (100 × rps
  // events a second), so that what refuses its events is the bound on new sessions being measured.
  const eventRate = String(EVENTS_PER_BATCH * rps * 2);
  const env = {
    ...BASE_ENV,
    PAIRWISE_TRUSTED_PROXIES: '127.0.0.1',
    PAIRWISE_EASE_REFIT_EVENTS: '0',
    PAIRWISE_EASE_REFIT_MINUTES: '0',
    PAIRWISE_RATE_ADDRESS_PER_SECOND: eventRate,
    PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: eventRate,
  };
  if (bound === 'off') Object.assign(env, { PAIRWISE_NEW_SESSIONS_PER_ADDRESS_PER_MINUTE: '0', PAIRWISE_NEW_SESSIONS_PER_SHOP_PER_MINUTE: '0' });
  const service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), env, pinning);
  try {
    const info = service.info as unknown as ServiceInfo;
    const url = service.url;
    await giveHistory(url, info);
    const before = await customerAnswer(url, info);
    if (before.level !== 3 || before.personalized.length === 0) throw new Error(`the customer's answer before the flood is not personalized: ${JSON.stringify(before)}`);
    // A product the customer never touched: the flood changes nothing their personalized items read.
    const target = info.sample.productIds.at(-1)!;
    const headers = (b: number) => ({
      authorization: `Bearer ${info.publicKey}`,
      'content-type': 'application/json',
      'x-forwarded-for': addresses === 1 ? FLOODER : `10.${((b % addresses) >> 8) & 255}.${b % addresses & 255}.7`,
    });
    const result: FloodResult = { bound, events, accepted: 0, refusedNewSessions: 0, refusedRequests: 0, seconds: 0, before, checks: 0, identical: true, changed: [], shoppers: { customers: 0, sessions: 0 } };
    const check = async () => {
      const answer = await customerAnswer(url, info);
      result.checks++;
      if (JSON.stringify(answer) !== JSON.stringify(before)) {
        result.identical = false;
        if (result.changed.length < 5) result.changed.push(answer);
      }
    };
    const send = async (b: number) => {
      const batch = Array.from({ length: Math.min(EVENTS_PER_BATCH, events - b * EVENTS_PER_BATCH) }, (_, i) => ({ type: 'view', productId: target, sessionId: `flood-${bound}-${b * EVENTS_PER_BATCH + i}` }));
      const res = await fetch(url + EVENTS_BATCH, { method: 'POST', headers: headers(b), body: JSON.stringify({ events: batch }) });
      if (res.status === 429) {
        await res.text();
        result.refusedRequests += batch.length;
        return;
      }
      const body = await json<{ accepted: number; results: { success: boolean; error?: { code: string } }[] }>(res);
      result.accepted += body.accepted;
      for (const r of body.results) if (r.error?.code === 'too_many_new_sessions') result.refusedNewSessions++;
    };
    const batches = Math.ceil(events / EVENTS_PER_BATCH);
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    let lastCheck = started;
    for (let b = 0; b < batches; b++) {
      // Paced: batch b leaves at b / rps seconds, whatever the answers take (up to 64 in flight).
      const due = started + (b * 1000) / rps;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      while (inFlight.size >= 64) await Promise.race(inFlight);
      const sent = send(b).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
      if (performance.now() - lastCheck >= 2000) {
        lastCheck = performance.now();
        await check();
        if (result.checks % 5 === 0) progress(`    ${((b + 1) * EVENTS_PER_BATCH).toLocaleString('en-US')} flood events sent; customer's answer ${result.identical ? 'unchanged' : 'CHANGED'} at ${result.checks} checks`);
      }
    }
    await Promise.all(inFlight);
    result.seconds = (performance.now() - started) / 1000;
    await check();
    const shop = await json<{ counts: { customers: number; sessions: number } }>(await fetch(`${url}/api/shop`, { headers: { authorization: `Bearer ${info.secretKey}` } }));
    result.shoppers = { customers: shop.counts.customers, sessions: shop.counts.sessions };
    return result;
  } finally {
    await service.stop();
  }
}

interface ProxyResult {
  trusted: boolean;
  flooder: { requests: number; ok: number };
  shopper: { requests: number; ok: number };
}

/** (b): one client floods GETs through the proxy while a shopper behind the same proxy browses. */
async function proxyFlood(trusted: boolean, seconds: number, connections: number): Promise<ProxyResult> {
  // Few seed events: without trusted proxies the seeding itself comes from the one limited address.
  const env = { ...BASE_ENV, PAIRWISE_RATE_LIMIT_EXEMPT: '', BENCH_SEED_EVENTS: '2000', ...(trusted ? { PAIRWISE_TRUSTED_PROXIES: '127.0.0.1' } : {}) };
  const service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), env, pinning);
  try {
    const info = service.info as unknown as ServiceInfo;
    const url = service.url;
    const product = info.sample.productIds[0]!;
    const result: ProxyResult = { trusted, flooder: { requests: 0, ok: 0 }, shopper: { requests: 0, ok: 0 } };
    // Seeding took some of the proxy address's bucket when it is the only address: let it refill.
    await sleep(3000);
    const end = performance.now() + seconds * 1000;
    const get = (client: string) =>
      fetch(`${url}/api/recommendations?productId=${product}`, { headers: { authorization: `Bearer ${info.publicKey}`, 'x-forwarded-for': client } }).then(async (res) => {
        await res.arrayBuffer();
        return res.status === 200;
      });
    const flooder = async () => {
      while (performance.now() < end) {
        const ok = await get(FLOODER);
        result.flooder.requests++;
        if (ok) result.flooder.ok++;
      }
    };
    const shopper = async () => {
      for (let i = 0; performance.now() < end; i++) {
        const event = fetch(url + '/api/events', {
          method: 'POST',
          headers: { authorization: `Bearer ${info.publicKey}`, 'content-type': 'application/json', 'x-forwarded-for': SHOPPER },
          body: JSON.stringify({ type: 'view', productId: product, sessionId: 'real-shopper' }),
        }).then(async (res) => {
          await res.arrayBuffer();
          return res.status === 200;
        });
        for (const ok of await Promise.all([get(SHOPPER), event])) {
          result.shopper.requests++;
          if (ok) result.shopper.ok++;
        }
        await sleep(500);
      }
    };
    await Promise.all([shopper(), ...Array.from({ length: connections }, flooder)]);
    return result;
  } finally {
    await service.stop();
  }
}

const percent = (part: number, whole: number) => `${whole === 0 ? '-' : ((100 * part) / whole).toFixed(1)} %`;

async function main(): Promise<void> {
  pinSelfToLoadCpu(pinning);
  const events = integerSetting('BENCH_FLOOD_EVENTS', 200_000, EVENTS_PER_BATCH, 5_000_000);
  const rps = integerSetting('BENCH_FLOOD_RPS', 50, 1, 10_000);
  const connections = integerSetting('BENCH_PROXY_FLOOD_CONNECTIONS', 16, 1, 256);
  const addresses = integerSetting('BENCH_FLOOD_ADDRESSES', 1, 1, 65_536);
  progress(`bench/shopper-flood: (a) ${events} new sessions at ${rps} requests/s of ${EVENTS_PER_BATCH}; (b) ${connections} flooding connections for ${settings.seconds} s; ${pinning.note}`);

  const floods: FloodResult[] = [];
  for (const bound of ['default', 'off'] as const) {
    progress(`(a) flood of new sessions, bound on new sessions ${bound === 'default' ? 'at its defaults' : 'off (the session pool alone)'}…`);
    floods.push(await sessionFlood(bound, events, rps, addresses));
  }
  const proxies: ProxyResult[] = [];
  for (const trusted of [false, true]) {
    progress(`(b) proxy flood, ${trusted ? 'PAIRWISE_TRUSTED_PROXIES=127.0.0.1' : 'no trusted proxy (baseline: every request is the proxy\u2019s address)'}…`);
    proxies.push(await proxyFlood(trusted, settings.seconds, connections));
  }

  const file = writeResults('shopper-flood', {
    benchmark: 'shopper-flood',
    finishedAt: new Date().toISOString(),
    settings: { ...settings, events, rps, addresses, connections },
    pinning,
    environment: environment(),
    floods,
    proxies,
  });
  console.log('');
  console.log(`(a) row 1: new sessions through the public key from ${addresses === 1 ? 'one address' : `${addresses} addresses`}; a logged-in customer\u2019s personalized answer (level and items)`);
  for (const f of floods) {
    console.log(
      `  bound ${f.bound.padEnd(7)}: ${f.events.toLocaleString('en-US')} events in ${f.seconds.toFixed(1)} s; stored ${f.accepted.toLocaleString('en-US')}, refused as new sessions over the bound ${f.refusedNewSessions.toLocaleString('en-US')}, in requests refused by a rate limit ${f.refusedRequests.toLocaleString('en-US')};` +
        ` answer (level ${f.before.level}, ${f.before.personalized.length} personalized items) ${f.identical ? 'identical' : 'CHANGED'} at all ${f.checks} checks; shoppers held after: ${f.shoppers.customers} customers, ${f.shoppers.sessions.toLocaleString('en-US')} sessions`,
    );
    if (!f.identical) console.log(`    changed to: ${JSON.stringify(f.changed)}`);
  }
  console.log('(b) row 7: a flooder and a real shopper behind one proxy, public key; success = 200');
  const [baseline, trusted] = proxies;
  for (const p of proxies) {
    console.log(`  ${p.trusted ? 'trusted proxy      ' : 'no trusted proxy   '}: real shopper ${p.shopper.ok}/${p.shopper.requests} (${percent(p.shopper.ok, p.shopper.requests)}), flooder ${p.flooder.ok.toLocaleString('en-US')}/${p.flooder.requests.toLocaleString('en-US')} (${percent(p.flooder.ok, p.flooder.requests)})`);
  }
  const rate = (p: ProxyResult) => p.shopper.ok / Math.max(1, p.shopper.requests);
  console.log(`  the real shopper's success rate, trusted ÷ baseline: ${(rate(trusted!) / Math.max(rate(baseline!), 1e-9)).toFixed(2)}×`);
  console.log(`results: ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
