// Durable experiments: each shop's under [shopId, number], numbered 1, 2, 3… in the transaction
// that creates them (so two writers never take the same number). Every change is an entry of the
// shop's log, the table its view (written in the same transaction).
import type { ExperimentRecord } from '../api/experiment.js';
import type { Databases } from './database.js';
import { LmdbShopLog, type ShopLog } from './shop-log.js';

export class ExperimentStore {
  constructor(
    readonly dbs: Databases,
    readonly log: ShopLog = new LmdbShopLog(dbs),
    /** Runs after each change is durable, with its log position (the service applies the log through it). */
    readonly appended: (shopId: string, position: number) => Promise<void> = async () => {},
  ) {}

  /** Stores a new experiment under the shop's next number; resolves with the record. */
  async create(shopId: string, fields: Omit<ExperimentRecord, 'number'>): Promise<ExperimentRecord> {
    const done = await this.log.append(shopId, { kind: 'create-experiment', fields }, fields.createdAt);
    await this.appended(shopId, done!.position);
    if (done!.change.kind !== 'experiment') throw new Error(`creating an experiment appended a ${done!.change.kind} change`);
    return done!.change.record;
  }

  async put(shopId: string, record: ExperimentRecord, at: number): Promise<void> {
    const done = await this.log.append(shopId, { kind: 'put-experiment', record }, at);
    await this.appended(shopId, done!.position);
  }

  get(shopId: string, number: number): ExperimentRecord | undefined {
    return this.dbs.experiments.get([shopId, number]);
  }

  /** Every experiment of every shop (loaded once at start). */
  *all(): Iterable<{ shopId: string; record: ExperimentRecord }> {
    for (const { key, value } of this.dbs.experiments.getRange()) yield { shopId: key[0], record: value };
  }

  *list(shopId: string): Iterable<ExperimentRecord> {
    for (const { value } of this.dbs.experiments.getRange({ start: [shopId, 0], end: [shopId, 2 ** 31] })) yield value;
  }
}
