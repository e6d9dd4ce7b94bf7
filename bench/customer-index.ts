// What the index of customers' events costs and buys, store-level (no server), on a temp LMDB:
//   - appends of batches of 100 events naming customers against the same appends without a
//     customerId (the baseline, interleaved in the same run): the ratio is the index's cost;
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

let started = performance.now();
for (let c = 0; c < CUSTOMERS; c++) store.latest('shop-named', `customer-${c}`, LAST_POSITION, REBUILD_EVENTS);
console.log(`rebuild read (newest ${REBUILD_EVENTS} of a customer's ${(ROUNDS * BATCH) / CUSTOMERS} events, one per entry of ${BATCH}): ${((performance.now() - started) / CUSTOMERS).toFixed(2)} ms each`);

started = performance.now();
const erased = await store.erase('shop-named', 'customer-7', 0);
console.log(`erasure of a customer with ${erased.events} events across as many entries: ${(performance.now() - started).toFixed(1)} ms, one commit`);

await dbs.root.close();
rmSync(dir, { recursive: true, force: true });
