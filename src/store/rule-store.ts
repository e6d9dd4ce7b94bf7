// Durable rules: each change is an entry of the shop's log (put-rule, remove-rule), the rules
// table its view under [shopId, ruleId] (written in the same transaction).
import type { Rule } from '../engine/rules/rule.js';
import { shopRange, type Databases } from './database.js';
import { LmdbShopLog, type ShopLog } from './shop-log.js';

export class RuleStore {
  constructor(
    readonly dbs: Databases,
    readonly log: ShopLog = new LmdbShopLog(dbs),
    /** Runs after each change is durable, with its log position (the service applies the log through it). */
    readonly appended: (shopId: string, position: number) => Promise<void> = async () => {},
  ) {}

  /** Stores the rule; resolves with its log position (undefined: refused, the shop holds its most rules). */
  async put(shopId: string, rule: Rule, at: number): Promise<number | undefined> {
    const done = await this.log.append(shopId, { kind: 'put-rule', rule }, at);
    if (done === undefined) return undefined;
    await this.appended(shopId, done.position);
    return done.position;
  }

  /** The rule as the log's view holds it (every server process of the data dir reads the same table). */
  get(shopId: string, ruleId: string): Rule | undefined {
    return this.dbs.rules.get([shopId, ruleId]);
  }

  /** The shop's rules, in id order. */
  list(shopId: string): Rule[] {
    return [...this.dbs.rules.getRange(shopRange(shopId))].map(({ value }) => value);
  }

  /** Removes the rule; resolves with its log position, undefined when the shop had no such rule. */
  async remove(shopId: string, ruleId: string, at: number): Promise<number | undefined> {
    const done = await this.log.append(shopId, { kind: 'remove-rule', ruleId }, at);
    if (done === undefined) return undefined;
    await this.appended(shopId, done.position);
    return done.position;
  }
}
