// Schedules shops' EASE refits (ease-refit.ts): a shop is due when `afterEvents` events arrived
// since its last refit, or `intervalMs` passed with any event since, and it has rested REST_FACTOR
// times as long as its last refit took. Shops are refitted one at a
// time, so at most one fit's matrix (4n² bytes) exists at once; stop() ends a refit under way.
// A process confined to one core whose event loop is busy starts no refit (for up to MAX_DEFER_MS):
// see Room. A shop being loaded (events arriving faster than LOADING_EVENTS_PER_SECOND between two
// looks, or over any second sampled between them, as when a merchant imports its history) is not refitted until the load ends (again for
// up to MAX_DEFER_MS): a fit of the first part of an import would stand for the rest of it until
// the next refit, which the rest after it puts minutes away. A refit still running after config.timeoutMs is ended (its thread starved of CPU, as
// on a core that other work keeps busy), and the shop then rests REST_FACTOR times that long.
import { availableParallelism } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { EaseRefitConfig } from '../config.js';
import type { EaseFit } from '../engine/ease/ease-model.js';
import type { CartTuningReport, TuningReport } from '../engine/tuning/tuned-settings.js';
import type { CartBlend } from '../engine/ease/ease-blend.js';
import type { Log } from '../observability/log.js';
import { refitEase } from './ease-refit.js';
import type { ShopEngines } from '../engine/shop-engines.js';

/** How often due shops are looked for, in ms. */
const CHECK_MS = 10_000;
/**
 * How often shops' event rates are sampled between looks, in ms: a load that began a few seconds
 * before a look (a merchant's import started just after the catalog) is seen by its rate over those
 * seconds, not diluted by the quiet ones before it.
 */
const SAMPLE_MS = 1_000;

/**
 * After a refit that took d, the shop rests at least REST_FACTOR × d before the next one, so
 * refits take at most a quarter of the time whatever the event rate: on a busy machine a fit of
 * 5,000 products takes minutes at the lowest priority, and refitting every `afterEvents` would
 * hold its matrix (4n² bytes) and the core's leftover CPU without pause.
 */
export const REST_FACTOR = 3;

/**
 * What the process has to spare for a refit: the fraction of the time since the last look that
 * its event loop was busy, and the cores it may run on (its CPU affinity). A refit's thread runs
 * at the lowest priority, so on one busy core it makes almost no progress while holding its
 * matrix: measured through the API at 100k products, a refit started early in a 2M-event load was
 * still running when the benchmark ended minutes later, holding ~120 MB, and would have installed a
 * fit of the first 2.5 % of the events. Started once the core has room, it finishes sooner on fresher data.
 */
export interface Room {
  busy: number;
  cores: number;
}

/** A shop taking more events a second than this between two looks is being loaded: its refit waits for the load to end. */
export const LOADING_EVENTS_PER_SECOND = 1_000;
/** Looks closer together than this measure no rate (a shop is not taken for loaded on a short glimpse). */
const SHORTEST_RATE_WINDOW_MS = 1_000;

/** A shop's event count at the last sample, and the highest rate of any sampled stretch since the last look. */
interface Sample {
  events: number;
  at: number;
  peak: number;
}

/** A shop's event count at the last look, and since when its refit has waited for a load to end. */
interface Look {
  events: number;
  at: number;
  loadingSince?: number;
}

/** A one-core process busier than this starts no refit. */
export const BUSY_LIMIT = 0.8;
/** …for at most this long: a core that stays busy still gets a refit this often. */
export const MAX_DEFER_MS = 10 * 60_000;

/** Room measured on this process: event-loop utilisation since the previous call, and available parallelism. */
export function processRoom(): () => Room {
  let previous: EventLoopUtilization | undefined;
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = previous === undefined ? now.utilization : performance.eventLoopUtilization(now, previous).utilization;
    previous = now;
    return { busy, cores: availableParallelism() };
  };
}

interface Last {
  /** engine.eventCount at the last refit's input. */
  events: number;
  at: number;
  /** When the last refit ended, and how long it took (clock ms). */
  endedAt: number;
  took: number;
}

/**
 * Where a finished fit goes instead of straight into the engine: the log (LmdbShopLog.publishEaseFit),
 * from which every process installs it at one position. `fittedThrough`: the log position the
 * models stood for when the fit's input was read.
 */
export type PublishFit = (shopId: string, fit: EaseFit, fittedThrough: number) => Promise<void>;

/** What each tuning decision did, as the refit's log line says it. */
const DECIDED: Record<TuningReport['decision'], string> = {
  tuned: 'settings tuned',
  'default-best': 'the defaults kept (none tried scored above them)',
  'within-noise': 'the defaults kept (the best tried led by less than the noise)',
  'too-little-data': 'the defaults kept',
};

export interface EaseRefitsOptions {
  /** How busy this process's event loop is and on how many cores (default: measured). */
  room?: () => Room;
  /** Undefined: each fit is installed in this process's engine alone. */
  publish?: PublishFit;
  /** Whether this process is the one that refits now (the housekeeping lease); checked at every look (default: yes). */
  mayRefit?: () => boolean;
  /** Told when a refit starts and ends (the service marks it where every process can see it). */
  announce?: (refitting: boolean) => void;
}

/** The refit's log line's account of its tuning: what was measured, on how many shoppers, and what it decided. */
export function tuningLine(report: TuningReport | undefined): string {
  if (report === undefined) return '';
  const { settings: s, scores, best } = report;
  const seconds = (report.ms / 1000).toFixed(1);
  const settings = `momentum ${s.momentumExponent}, real-time weight ${s.realTimeWeight}, history exponent ${s.historyExponent}, λ ${s.lambda}`;
  if (report.decision === 'too-little-data' || scores.chosen === null || scores.default === null) {
    return `; tuning: ${report.shoppers} shoppers' newest purchases to validate on, too few to measure: ${DECIDED['too-little-data']} (${settings})`;
  }
  const score = (x: number | null) => (x === null ? 'not measured' : x.toFixed(4));
  const bestSellers = scores.popularity === null ? '' : `, best sellers ${score(scores.popularity)}${scores.popularity >= scores.chosen ? ' (as good or better)' : ''}`;
  return (
    `; tuning on ${report.shoppers} shoppers' newest purchases in ${seconds} s: ${DECIDED[report.decision]}, ${settings} ` +
    `(nDCG@10 in use ${score(scores.chosen)}, defaults ${score(scores.default)}${bestSellers}; best tried ${score(scores.best)} ± ${report.standardError.toFixed(4)}: ` +
    `momentum ${best.momentumExponent}, real-time weight ${best.realTimeWeight}, history exponent ${best.historyExponent}, λ ${best.lambda})` +
    cartLine(report.cart)
  );
}

/** The cart blend's part of the tuning line. */
function cartLine(cart: CartTuningReport | undefined): string {
  if (cart === undefined) return '; carts: no time left for their fit, the default blend';
  const blend = (b: CartBlend) => `EASE ${b.easeWeight}, pairs ${b.pairWeight}, content ${b.contentWeight}`;
  if (cart.decision === 'too-little-data' || cart.scores.chosen === null) return `; carts: ${cart.carts} orders to hold out, too few: the default blend (${blend(cart.settings)})`;
  const score = (x: number | null) => (x === null ? 'not measured' : x.toFixed(4));
  return (
    `; carts on ${cart.carts} held-out orders in ${(cart.ms / 1000).toFixed(1)} s: ${DECIDED[cart.decision].replace('settings', 'blend')}, ${blend(cart.settings)} ` +
    `(nDCG@10 in use ${score(cart.scores.chosen)}, EASE alone ${score(cart.scores.easeAlone)}, pairs alone ${score(cart.scores.pairsAlone)}; best ${score(cart.scores.best)} ± ${cart.standardError.toFixed(4)}: ${blend(cart.best)})`
  );
}

export class EaseRefits {
  readonly #last = new Map<string, Last>();
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #refitting = false;
  /** Since when due refits have waited for a busy core (undefined: none waiting). */
  #deferredSince: number | undefined;
  /** Per shop: its event count at the last look (the shops there at start count from their replayed events). */
  readonly #looks = new Map<string, Look>();
  /** Per shop: its rate sampled between looks (sample()). */
  readonly #samples = new Map<string, Sample>();
  #sampler: NodeJS.Timeout | undefined;
  /** Shops being loaded at the last look (their refits wait). */
  readonly #loading = new Set<string>();
  /** When start() was called, and when the shops were last looked at: a shop new since then got its events since then. */
  #startedAt: number | undefined;
  #lastLookAt: number | undefined;

  readonly room: () => Room;
  readonly publish: PublishFit | undefined;
  readonly mayRefit: () => boolean;
  readonly announce: (refitting: boolean) => void;

  constructor(
    readonly engines: ShopEngines,
    readonly config: EaseRefitConfig,
    readonly clock: () => number,
    readonly log: Log,
    options: EaseRefitsOptions = {},
  ) {
    this.room = options.room ?? processRoom();
    this.publish = options.publish;
    this.mayRefit = options.mayRefit ?? (() => true);
    this.announce = options.announce ?? (() => {});
    const now = clock();
    for (const [shopId, engine] of engines.entries()) this.#looks.set(shopId, { events: engine.eventCount, at: now });
  }

  start(checkMs = CHECK_MS): void {
    this.#startedAt = this.clock();
    if (this.config.intervalMs === 0 && this.config.afterEvents === 0) return;
    this.#timer = setInterval(() => void this.refitDue(), checkMs);
    this.#timer.unref();
    this.#sampler = setInterval(() => this.sample(), Math.min(SAMPLE_MS, checkMs));
    this.#sampler.unref();
  }

  /** Notes each shop's event rate since the last sample; the next look takes the highest as the shop's rate if it is above the average. */
  sample(now = this.clock()): void {
    for (const [shopId, engine] of this.engines.entries()) {
      const events = engine.eventCount;
      const last = this.#samples.get(shopId);
      if (last === undefined) {
        // A shop new since the last look (or start) got all its events since then, as #look counts them.
        const since = this.#looks.has(shopId) ? now : (this.#lastLookAt ?? this.#startedAt ?? now);
        this.#samples.set(shopId, { events: since === now ? events : 0, at: since, peak: 0 });
        continue;
      }
      const elapsed = now - last.at;
      if (elapsed < SAMPLE_MS / 2) continue;
      this.#samples.set(shopId, { events, at: now, peak: Math.max(last.peak, ((events - last.events) * 1000) / elapsed) });
    }
  }

  /** Whether a refit is under way (reading its input, solving or installing). */
  get refitting(): boolean {
    return this.#refitting;
  }

  /** Ends the refit under way (nothing installed) and schedules no more; resolves when it has stopped. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    clearInterval(this.#sampler);
    this.#abort.abort();
    await this.#running;
  }

  /** Refits every due shop in turn; resolves with how many were installed. */
  refitDue(): Promise<number> {
    this.#running ??= this.#refitDue().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /**
   * Takes every shop's event count now and notes which are being loaded: those whose rate since
   * the last look was above LOADING_EVENTS_PER_SECOND, unless their refit has waited MAX_DEFER_MS.
   */
  #look(now: number): void {
    this.#loading.clear();
    for (const [shopId, engine] of this.engines.entries()) {
      const events = engine.eventCount;
      let seen = this.#looks.get(shopId);
      if (seen === undefined) {
        // A shop that was not there at the last look (or at start): its events all came since then.
        const since = this.#lastLookAt ?? this.#startedAt;
        seen = since === undefined ? { events, at: now } : { events: 0, at: since };
        this.#looks.set(shopId, seen);
      }
      const elapsed = now - seen.at;
      if (elapsed < SHORTEST_RATE_WINDOW_MS) {
        if (seen.loadingSince !== undefined) this.#loading.add(shopId);
        continue;
      }
      const sampled = this.#samples.get(shopId);
      const rate = Math.max(((events - seen.events) * 1000) / elapsed, sampled?.peak ?? 0);
      if (sampled !== undefined) sampled.peak = 0;
      let loadingSince = rate > LOADING_EVENTS_PER_SECOND ? (seen.loadingSince ?? now) : undefined;
      if (loadingSince !== undefined && now - loadingSince >= MAX_DEFER_MS) loadingSince = undefined; // waited long enough
      if (loadingSince !== undefined) {
        if (seen.loadingSince === undefined) this.log(`EASE refit of shop "${shopId}" waits for its load to end (${Math.round(rate)} events a second; at most ${MAX_DEFER_MS / 60_000} minutes)`, { event: 'refit-deferred', shop: shopId, eventsPerSecond: Math.round(rate) });
        this.#loading.add(shopId);
      }
      this.#looks.set(shopId, { events, at: now, ...(loadingSince === undefined ? {} : { loadingSince }) });
    }
    this.#lastLookAt = now;
  }

  #due(shopId: string, events: number, now: number): boolean {
    if (this.#loading.has(shopId)) return false;
    const last = this.#last.get(shopId) ?? { events: 0, at: -Infinity, endedAt: -Infinity, took: 0 };
    const fresh = events - last.events;
    if (fresh <= 0 || now - last.endedAt < REST_FACTOR * last.took) return false;
    if (this.config.afterEvents > 0 && fresh >= this.config.afterEvents) return true;
    return this.config.intervalMs > 0 && now - last.at >= this.config.intervalMs;
  }

  /** Whether due refits wait: the process has one core and its event loop was busy (up to MAX_DEFER_MS). */
  #crowded({ busy, cores }: Room, now: number): boolean {
    if (cores > 1 || busy <= BUSY_LIMIT) {
      this.#deferredSince = undefined;
      return false;
    }
    if (this.#deferredSince === undefined) {
      this.#deferredSince = now;
      this.log(`EASE refits wait: the process has one core and its event loop was ${Math.round(busy * 100)} % busy (at most ${MAX_DEFER_MS / 60_000} minutes)`, { event: 'refit-deferred', busy });
    }
    if (now - this.#deferredSince < MAX_DEFER_MS) return true;
    this.#deferredSince = undefined; // waited long enough: the due refits run now
    return false;
  }

  async #refitDue(): Promise<number> {
    let installed = 0;
    const now = this.clock();
    const room = this.room(); // at every look, so that it covers the time since the last one
    if (!this.mayRefit()) return 0;
    this.#look(now);
    const shops = [...this.engines.entries()];
    if (!shops.some(([shopId, engine]) => this.#due(shopId, engine.eventCount, now)) || this.#crowded(room, now)) return 0;
    for (const [shopId, engine] of shops) {
      if (this.#abort.signal.aborted) break;
      const events = engine.eventCount;
      if (!this.#due(shopId, events, this.clock())) continue;
      const last: Last = { events, at: this.clock(), endedAt: Infinity, took: 0 };
      this.#last.set(shopId, last);
      this.#refitting = true;
      this.announce(true);
      const timeout = this.config.timeoutMs > 0 ? AbortSignal.timeout(this.config.timeoutMs) : undefined;
      try {
        const signal = timeout === undefined ? this.#abort.signal : AbortSignal.any([this.#abort.signal, timeout]);
        const fittedThrough = this.engines.position(shopId);
        let fit: EaseFit | undefined;
        const install = this.publish === undefined ? undefined : (finished: EaseFit) => void (fit = finished);
        const result = await refitEase(engine, this.config, signal, install, this.clock())
          .then(async (done) => {
            if (done !== undefined && fit !== undefined) await this.publish!(shopId, fit, fittedThrough);
            return done;
          })
          .finally(() => {
            this.#refitting = false;
            this.announce(false);
            last.endedAt = this.clock();
            last.took = last.endedAt - last.at;
          });
        if (result === undefined) {
          if (timeout?.aborted === true && !this.#abort.signal.aborted) {
            this.log(`EASE refit of shop "${shopId}" ended unfinished after ${this.config.timeoutMs / 60_000} minutes (PAIRWISE_EASE_REFIT_TIMEOUT_MINUTES), its matrix freed: the machine had no room for it; the fit in place stays`, { event: 'refit-timeout', level: 'warn', shop: shopId });
          }
          continue;
        }
        installed++;
        this.log(`EASE refit of shop "${shopId}": ${result.items} products, ${result.shoppers} shoppers, solved in ${(result.solveMs / 1000).toFixed(1)} s (${(result.matrixBytes / 2 ** 20).toFixed(0)} MiB matrix)${tuningLine(result.tuning)}`, {
          event: 'refit',
          shop: shopId,
          products: result.items,
          shoppers: result.shoppers,
          solveSeconds: result.solveMs / 1000,
          matrixBytes: result.matrixBytes,
          ...(result.tuning === undefined ? {} : { tuning: result.tuning.decision }),
        });
      } catch (error) {
        this.log(`EASE refit of shop "${shopId}" failed: ${(error as Error).message}`, { event: 'refit-failed', level: 'error', shop: shopId, error: (error as Error).message });
      }
    }
    return installed;
  }
}
