// Attribution on the ingest path, in process: the cost of Attribution.apply per event (what every
// accepted event pays on top of the other models) on a storefront-like stream where every
// impression and click carries a recId, against JSON.parse of one event measured in the same run;
// then GET /api/stats's work (statistics()) after BENCH_EVENTS events spread over 400 days.
// Usage: npm run bench:attribution   (BENCH_EVENTS=10000000 for the 10M-event stats figure)
import { Attribution, type AttributedEvent } from '../src/engine/attribution/attribution.js';
import { DAY_MS } from '../src/engine/attribution/day-cells.js';
import { recIdPrefix } from '../src/engine/attribution/rec-id.js';
import { statistics, type GroupBy } from '../src/analytics/statistics.js';
import { STRATEGIES } from '../src/engine/strategy.js';
import { prng } from './support/prng.js';
import { integerSetting } from './support/settings.js';

const settings = {
  events: integerSetting('BENCH_EVENTS', 2_000_000, 10_000, 50_000_000),
  sessions: integerSetting('BENCH_SESSIONS', 200_000, 100, 10_000_000),
  products: integerSetting('BENCH_PRODUCTS', 10_000, 10, 1_000_000),
  seed: integerSetting('BENCH_SEED', 1, 0, 2 ** 31),
};
const DAYS = 400;
const CHUNK = 100_000;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * A chunk of a storefront's stream, time increasing over DAYS days: per session an impression of
 * 4 products, a click on one of them (half with the recId, half without), sometimes an add-to-cart
 * and a purchase of it, and views between; 20 widgets, 3 experiments of 2 variants.
 */
interface Random {
  next(): number;
  int(n: number): number;
}

function* stream(random: Random): Generator<AttributedEvent[]> {
  const start = Date.parse('2024-01-01T00:00:00Z');
  const step = (DAYS * DAY_MS) / settings.events;
  let chunk: AttributedEvent[] = [];
  for (let i = 0; i < settings.events; ) {
    const sessionId = 's' + random.int(settings.sessions);
    const customerId = random.next() < 0.3 ? 'c' + random.int(settings.sessions / 4) : undefined;
    const widgetId = 'w' + random.int(20);
    const experiment = random.int(4);
    const recId = recIdPrefix(STRATEGIES[random.int(STRATEGIES.length)]!, experiment, experiment === 0 ? 0 : 1 + random.int(2)) + 'k' + i.toString(36);
    const shown = Array.from({ length: 4 }, () => String(random.int(settings.products)));
    const base = { sessionId, ...(customerId ? { customerId } : {}) };
    const events: Omit<AttributedEvent, 'timestamp'>[] = shown.map((productId) => ({ type: 'impression', productId, widgetId, recId, ...base }));
    events.push({ type: 'view', productId: String(random.int(settings.products)), ...base });
    if (random.next() < 0.5) {
      const productId = shown[random.int(4)]!;
      events.push(random.next() < 0.5 ? { type: 'click', productId, widgetId, recId, ...base } : { type: 'click', productId, ...base });
      if (random.next() < 0.3) events.push({ type: 'add_to_cart', productId, ...base });
      if (random.next() < 0.15) events.push({ type: 'purchase', productId, metadata: { orderId: 'o' + i, price: 20, quantity: 1 }, ...base });
    }
    for (const event of events) {
      if (i >= settings.events) break;
      chunk.push({ ...event, timestamp: Math.floor(start + i * step) } as AttributedEvent);
      i++;
      if (chunk.length === CHUNK) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** ns per JSON.parse of one event as it arrives on the wire (the same run's baseline). */
function jsonParseNs(sample: readonly AttributedEvent[]): number {
  const texts = sample.slice(0, 10_000).map((e) => JSON.stringify(e));
  let sink = 0;
  const started = performance.now();
  for (let r = 0; r < 5; r++) for (const text of texts) sink += (JSON.parse(text) as { timestamp: number }).timestamp & 1;
  const ns = ((performance.now() - started) * 1e6) / (5 * texts.length);
  if (sink < 0) console.log(sink);
  return ns;
}

function main(): void {
  const next = prng(settings.seed);
  const random: Random = { next, int: (n) => Math.floor(next() * n) };
  const model = new Attribution(7 * DAY_MS);
  const priceOf = () => 10;
  let applyMs = 0;
  let applied = 0;
  let baselineNs = 0;
  let baselineRuns = 0;
  for (const chunk of stream(random)) {
    if (applied % 1_000_000 === 0) {
      baselineNs += jsonParseNs(chunk);
      baselineRuns++;
    }
    const started = performance.now();
    for (let i = 0; i < chunk.length; i++) model.apply(chunk[i]!, priceOf);
    applyMs += performance.now() - started;
    applied += chunk.length;
  }
  const perEventNs = (applyMs * 1e6) / applied;
  const parseNs = baselineNs / baselineRuns;
  console.log(`Attribution.apply: ${fmt(applied)} events in ${fmt(applyMs)} ms: ${fmt(perEventNs / 1000, 3)} µs per event (bound: 2 µs)`);
  console.log(`baseline: JSON.parse of one event ${fmt(parseNs / 1000, 3)} µs; ratio apply ÷ parse ${fmt(perEventNs / parseNs, 2)}`);
  console.log(`cells ${fmt(model.cells.cellCount)} over ${model.cells.dayCount} days, widgets registered ${model.widgets.registered.length}, shoppers ${fmt(model.shoppers.slots.size)}`);
  console.log(`product cells ${fmt(model.products.cells.cellCount)} over ${model.products.cells.dayCount} days, products ${fmt(model.products.names.length - 1)}`);
  const lastDay = Math.floor((Date.parse('2024-01-01T00:00:00Z') + (DAYS - 1) * DAY_MS) / DAY_MS);
  for (const groupBy of ['strategy', 'widget', 'variant', 'day', 'product'] as GroupBy[]) {
    const times: number[] = [];
    for (let r = 0; r < 20; r++) {
      const started = performance.now();
      JSON.stringify(statistics(model, { fromDay: lastDay - DAYS + 1, toDay: lastDay }, groupBy));
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`GET /api/stats work, ${DAYS} days, groupBy=${groupBy}: median ${fmt(times[10]!, 2)} ms, max ${fmt(times[19]!, 2)} ms (bound: 200 ms)`);
  }
}

main();
