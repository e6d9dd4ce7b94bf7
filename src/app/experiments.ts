// Experiments' use cases (create, start, stop, conclude, read) and the running ones by placement,
// kept in memory for the recommendation hot path: one Map lookup and one hash per request on a
// placement with an experiment. Writes are serialized (one at a time) in this process, so "one
// running experiment per widget" holds without a race between two starts sent to it; two starts
// sent to two server processes at the same moment can both pass the check (the later one wins).
import { assignVariant } from '../analytics/assignment.js';
import { experimentView, type ExperimentRecord, type NewExperiment } from '../api/experiment.js';
import type { ExperimentWithResults } from '../api/responses.js';
import { experimentResults } from '../analytics/statistics.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { Strategy } from '../engine/strategy.js';
import { AppError } from '../errors.js';
import type { ExperimentStore } from '../store/experiment-store.js';

/** What an experiment decides for one request: its variant's strategy (undefined: automatic). */
export interface Arm {
  experiment: number;
  variant: number;
  strategy: Strategy | undefined;
}

const EVERY_DAY = { fromDay: -Infinity, toDay: Infinity };

const EXPERIMENT_ID = /^exp_([1-9][0-9]{0,8})$/;

export class Experiments {
  /** `shopId \0 widgetId` → its running experiment and its variants' shares. */
  readonly #running = new Map<string, { record: ExperimentRecord; shares: number[] }>();
  #queue: Promise<unknown> = Promise.resolve();
  /** Counts changes to what is running: memos of arms are valid while it stays the same. */
  version = 0;

  constructor(
    readonly store: ExperimentStore,
    /** Where each experiment's results are counted (attribution). */
    readonly engines: ShopEngines,
  ) {
    for (const { shopId, record } of store.all()) if (record.status === 'running') this.#setRunning(shopId, record);
  }

  /** The variant of the running experiment on the placement for this shopper; undefined when none runs or no shopper is named. */
  arm(shopId: string, widgetId: string | undefined, shopperId: string | undefined): Arm | undefined {
    if (widgetId === undefined || shopperId === undefined || this.#running.size === 0) return undefined;
    const running = this.#running.get(shopId + '\u0000' + widgetId);
    if (running === undefined) return undefined;
    const variant = assignVariant(running.record.number, shopperId, running.shares);
    const strategy = running.record.variants[variant - 1]!.strategy;
    return { experiment: running.record.number, variant, strategy: strategy === 'auto' ? undefined : strategy };
  }

  list(shopId: string): ExperimentRecord[] {
    return [...this.store.list(shopId)];
  }

  /** The experiment named `id` (exp_<n>); throws not_found. */
  get(shopId: string, id: string): ExperimentRecord {
    const match = EXPERIMENT_ID.exec(id);
    const record = match === null ? undefined : this.store.get(shopId, Number(match[1]));
    if (record === undefined) throw new AppError('not_found', `no experiment "${id.slice(0, 80)}"`);
    return record;
  }

  /** The experiment with its variants' numbers over every kept day, each compared with A. */
  withResults(shopId: string, record: ExperimentRecord): ExperimentWithResults {
    const attribution = this.engines.face(shopId).results;
    const { variants, comparisons } = experimentResults(attribution, EVERY_DAY, record.number, record.variants.length);
    return { ...experimentView(record), results: { variants, comparisons } };
  }

  /** Stores a new experiment (as a draft). */
  create(shopId: string, experiment: NewExperiment, now: number): Promise<ExperimentRecord> {
    return this.#serial(() => this.store.create(shopId, { ...experiment, status: 'draft', createdAt: now }));
  }

  /** draft or stopped → running; running: unchanged. Refused for a concluded one, or while another runs on the widget. */
  start(shopId: string, id: string, now: number): Promise<ExperimentRecord> {
    return this.#serial(async () => {
      const record = this.get(shopId, id);
      if (record.status === 'running') return record;
      if (record.status === 'concluded') throw new AppError('experiment_conflict', `${id} is concluded: it keeps its results and cannot run again`);
      const other = this.#running.get(shopId + '\u0000' + record.widgetId);
      if (other !== undefined) throw new AppError('experiment_conflict', `exp_${other.record.number} is already running on widget "${record.widgetId}": stop it first`);
      const started: ExperimentRecord = { ...record, status: 'running', startedAt: record.startedAt ?? now };
      delete started.stoppedAt;
      await this.store.put(shopId, started, now);
      return started;
    });
  }

  /** running → stopped (its shoppers get the placement's own strategy again); stopped: unchanged. */
  stop(shopId: string, id: string, now: number): Promise<ExperimentRecord> {
    return this.#serial(async () => {
      const record = this.get(shopId, id);
      if (record.status === 'stopped') return record;
      if (record.status !== 'running') throw new AppError('experiment_conflict', `${id} is ${record.status}, not running`);
      const stopped: ExperimentRecord = { ...record, status: 'stopped', stoppedAt: now };
      await this.store.put(shopId, stopped, now);
      return stopped;
    });
  }

  /** Any state → concluded: no more assignments; its results stay. */
  conclude(shopId: string, id: string, now: number): Promise<ExperimentRecord> {
    return this.#serial(async () => {
      const record = this.get(shopId, id);
      if (record.status === 'concluded') return record;
      const concluded: ExperimentRecord = { ...record, status: 'concluded', concludedAt: now, ...(record.status === 'running' ? { stoppedAt: now } : {}) };
      await this.store.put(shopId, concluded, now);
      return concluded;
    });
  }

  /**
   * An experiment's record as the log applied it (from this process or another): what runs on its
   * placement follows. The store runs the applier before its writes resolve, so a start or stop is
   * in force here when it answers.
   */
  applied(shopId: string, record: ExperimentRecord): void {
    if (record.status === 'running') this.#setRunning(shopId, record);
    else this.#clearRunning(shopId, record);
  }

  #setRunning(shopId: string, record: ExperimentRecord): void {
    this.#running.set(shopId + '\u0000' + record.widgetId, { record, shares: record.variants.map((v) => v.share) });
    this.version++;
  }

  #clearRunning(shopId: string, record: ExperimentRecord): void {
    const key = shopId + '\u0000' + record.widgetId;
    if (this.#running.get(key)?.record.number === record.number) this.#running.delete(key);
    this.version++;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => {});
    return next;
  }
}

