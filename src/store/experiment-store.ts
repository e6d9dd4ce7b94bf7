// Durable experiments: each shop's under [shopId, number], numbered 1, 2, 3… in the transaction
// that creates them (so two writers never take the same number).
import type { ExperimentRecord } from '../api/experiment.js';
import type { Databases } from './database.js';
import { commitDurably } from './durable-commit.js';

export class ExperimentStore {
  constructor(readonly dbs: Databases) {}

  /** Stores a new experiment under the shop's next number; resolves with the record. */
  create(shopId: string, fields: Omit<ExperimentRecord, 'number'>): Promise<ExperimentRecord> {
    return commitDurably(this.dbs, () => {
      let last = 0;
      for (const key of this.dbs.experiments.getKeys({ start: [shopId, 2 ** 31], end: [shopId, 0], reverse: true, limit: 1 })) last = key[1];
      const record: ExperimentRecord = { ...fields, number: last + 1 };
      this.dbs.experiments.put([shopId, record.number], record);
      return record;
    });
  }

  put(shopId: string, record: ExperimentRecord): Promise<void> {
    return commitDurably(this.dbs, () => {
      this.dbs.experiments.put([shopId, record.number], record);
    });
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
