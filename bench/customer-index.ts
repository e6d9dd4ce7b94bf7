// What the index of customers' events costs and buys, store-level (no server), on a temp LMDB:
//   - appends of batches of 100 events naming customers against the same appends without a
//     customerId (the baseline, interleaved in the same run): the ratio is the index's cost;
//   - appends of 100 events of one session against 100 of as many sessions: the session index's
//     rows (one per session and append);
//   - the read behind a rebuild of an evicted customer (their newest 300 events);
//   - one erasure (one commit) of a customer whose events are spread over many entries.
//   npm run bench:customers       (BENCH_CUSTOMER_ROUNDS, default 200)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CustomerStore } from '../src/store/customer-store.js';
import { LAST_POSITION, openDatabases } from '../src/store/database.js';
import { LmdbShopLog, type NewEvent } from '../src/store/shop-log.js';
import { REBUILD_EVENTS } from '../src/ingest/customer-rebuild.js';

const ROUNDS = Number(process.env.BENCH_CUSTOMER_ROUNDS ?? 200);
const BATCH = 100;
const CUSTOMERS = 100;

const dir = mkdtempSync(path.join(tmpdir(), 'pairwise-bench-customers-'));
const dbs = openDatabases(dir);
const log = new LmdbShopLog(dbs);
const store = new CustomerStore(dbs, log);
let n = 0;

function batch(named: boolean): NewEvent[] {
  return Array.from({ length: BATCH }, (_, i) => {
    n++;
    const customer = named ? { customerId: `customer-${n % CUSTOMERS}` } : {};
    return { eventId: `evt_${String(n).padStart(26, '0')}`, event: { type: 'view', productId: `p${i % 50}`, sessionId: `s${n % 300}`, timestamp: n, ...customer } };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const times = { named: [] as number[], baseline: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  // Alternated, so that the data's growth and the machine's noise fall on both alike.
  for (const kind of round % 2 === 0 ? (['named', 'baseline'] as const) : (['baseline', 'named'] as const)) {
    const events = batch(kind === 'named');
    const started = performance.now();
    await log.appendEvents(`shop-${kind}`, events, 0, 0, 'secret');
    times[kind].push(performance.now() - started);
  }
}
const named = median(times.named);
const baseline = median(times.baseline);
console.log(`append of ${BATCH} events (median of ${ROUNDS}): naming customers ${named.toFixed(2)} ms, baseline (no customerId) ${baseline.toFixed(2)} ms: ${(named / baseline).toFixed(2)}x`);

// The session index writes one row per session and append: a widget's batch is one shopper's, an import's many.
const bySessions = { one: [] as number[], many: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of round % 2 === 0 ? (['one', 'many'] as const) : (['many', 'one'] as const)) {
    const events = batch(false).map(({ eventId, event }) => ({ eventId, event: { ...event, sessionId: kind === 'one' ? 'one-shopper' : `many-${eventId}` } }));
    const started = performance.now();
    await log.appendEvents(`shop-sessions-${kind}`, events, 0, 0, 'secret');
    bySessions[kind].push(performance.now() - started);
  }
}
const one = median(bySessions.one);
console.log(`append of ${BATCH} events from one session ${one.toFixed(2)} ms, from ${BATCH} sessions ${median(bySessions.many).toFixed(2)} ms: ${(median(bySessions.many) / one).toFixed(2)}x (a session index row each)`);

let started = performance.now();
for (let c = 0; c < CUSTOMERS; c++) store.latest('shop-named', `customer-${c}`, LAST_POSITION, REBUILD_EVENTS);
console.log(`rebuild read (newest ${REBUILD_EVENTS} of a customer's ${(ROUNDS * BATCH) / CUSTOMERS} events, one per entry of ${BATCH}): ${((performance.now() - started) / CUSTOMERS).toFixed(2)} ms each`);

started = performance.now();
const erased = await store.erase('shop-named', 'customer-7', 0);
console.log(`erasure of a customer with ${erased.events} events across as many entries: ${(performance.now() - started).toFixed(1)} ms, one commit`);

await dbs.root.close();
rmSync(dir, { recursive: true, force: true });
