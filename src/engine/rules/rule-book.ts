// A shop's rules, kept in id order (the order several matching rules compose in), each with its
// filters parsed once and compiled against the shop's attributes (again when the catalog's custom
// attribute names change). Also the instants where some rule starts or ends (its window's edges):
// an answer holds only until the next one (answers.ts, the answer cache).
import type { AttributeIndex } from '../filters/attribute-index.js';
import { compileFilter, type CompiledFilter } from '../filters/compiled-filter.js';
import { formatFilter, parseFilter, type FilterExpression } from '../filters/filter-syntax.js';
import type { FilterContext } from '../filters/filter-terms.js';
import { firstAbove } from '../sorted-search.js';
import type { Strategy } from '../strategy.js';
import { inForce, MAX_BOOSTS_PER_RULE, MAX_RULES_PER_SHOP, type Rule } from './rule.js';

/** A rule's filters compiled for the shop's attributes as they are now. */
export interface ActiveRule {
  readonly rule: Rule;
  readonly filter?: CompiledFilter;
  readonly hide?: CompiledFilter;
  readonly boosts: readonly { readonly filter: CompiledFilter; readonly factor: number }[];
}

interface Parsed {
  readonly context?: FilterExpression;
  readonly filter?: FilterExpression;
  readonly hide?: FilterExpression;
  readonly boosts: readonly { readonly expression: FilterExpression; readonly factor: number }[];
}

class InstalledRule {
  #compiled: { namesVersion: number; active: ActiveRule | undefined; context: CompiledFilter | undefined } | undefined;

  constructor(
    readonly rule: Rule,
    /** undefined: a filter of the rule does not parse (stored by an older version): it never applies. */
    readonly parsed: Parsed | undefined,
  ) {}

  /**
   * Its filters compiled for `index` by `compile` (null: an attribute the catalog no longer has);
   * undefined when one does not compile.
   */
  compiled(index: AttributeIndex, compile: (expression: FilterExpression) => CompiledFilter | null): { active: ActiveRule | undefined; context: CompiledFilter | undefined } {
    const cached = this.#compiled;
    if (cached !== undefined && cached.namesVersion === index.namesVersion) return cached;
    this.#compiled = { namesVersion: index.namesVersion, ...this.#compile(compile) };
    return this.#compiled;
  }

  #compile(compile: (expression: FilterExpression) => CompiledFilter | null): { active: ActiveRule | undefined; context: CompiledFilter | undefined } {
    const parsed = this.parsed;
    if (parsed === undefined) return { active: undefined, context: undefined };
    const one = (expression: FilterExpression | undefined): CompiledFilter | undefined | null => (expression === undefined ? undefined : compile(expression));
    const context = one(parsed.context);
    const filter = one(parsed.filter);
    const hide = one(parsed.hide);
    const boosts: { filter: CompiledFilter; factor: number }[] = [];
    for (const boost of parsed.boosts) {
      const compiled = one(boost.expression);
      if (compiled === null || compiled === undefined) return { active: undefined, context: undefined };
      boosts.push({ filter: compiled, factor: boost.factor });
    }
    if (context === null || filter === null || hide === null) return { active: undefined, context: undefined };
    const active: ActiveRule = { rule: this.rule, boosts, ...(filter === undefined ? {} : { filter }), ...(hide === undefined ? {} : { hide }) };
    return { active, context };
  }
}

/** Each of the rule's filters parsed; undefined when one does not parse. */
function parseRule(rule: Rule): Parsed | undefined {
  const parse = (text: string | undefined): FilterExpression | undefined | null => {
    if (text === undefined) return undefined;
    const parsed = parseFilter(text);
    return parsed.ok ? parsed.expression : null;
  };
  const context = parse(rule.when.context);
  const filter = parse(rule.then.filter);
  const hide = parse(rule.then.hide);
  const boosts = (rule.then.boost ?? []).map((b) => ({ expression: parse(b.filter), factor: b.factor }));
  if (context === null || filter === null || hide === null || boosts.some((b) => b.expression === null || b.expression === undefined)) return undefined;
  return {
    boosts: boosts as { expression: FilterExpression; factor: number }[],
    ...(context === undefined ? {} : { context }),
    ...(filter === undefined ? {} : { filter }),
    ...(hide === undefined ? {} : { hide }),
  };
}

/** What a request brings for matching: its context besides the strategy. */
export interface RuleRequest {
  readonly widgetId?: string;
  readonly collectionId?: string;
}

/** Compiled filters a rule book keeps by text: every filter of 100 rules twice over. */
const MAX_COMPILED = 2 * MAX_RULES_PER_SHOP * (3 + MAX_BOOSTS_PER_RULE);

export class RuleBook {
  /** In id order (code unit order). */
  #rules: InstalledRule[] = [];
  /**
   * The rules' filters compiled, by canonical text, at one version of the catalog's attribute
   * names: rules holding the same filter hold the same CompiledFilter, so an answer selects it once.
   */
  #compiled = new Map<string, CompiledFilter | null>();
  #compiledAt = -1;
  /** Every enabled rule's from and until, ascending, distinct. */
  #edges = new Float64Array(0);
  #byWidget = false;

  get size(): number {
    return this.#rules.length;
  }

  /** Whether some rule matches on widgetIds (then a request's widgetId can change its answer). */
  get byWidget(): boolean {
    return this.#byWidget;
  }

  get(id: string): Rule | undefined {
    const installed = this.#rules[this.#find(id)];
    return installed?.rule.id === id ? installed.rule : undefined;
  }

  /** A copy holding the same rules (a preview changes the copy, not the shop's book). */
  copy(): RuleBook {
    const book = new RuleBook();
    for (const installed of this.#rules) book.put(installed.rule);
    return book;
  }

  /** Every rule, in id order. */
  list(): Rule[] {
    return this.#rules.map((installed) => installed.rule);
  }

  /** Adds or replaces the rule of its id; returns the one it replaced. */
  put(rule: Rule): Rule | undefined {
    const at = this.#find(rule.id);
    const installed = new InstalledRule(rule, parseRule(rule));
    let previous: Rule | undefined;
    if (this.#rules[at]?.rule.id === rule.id) {
      previous = this.#rules[at]!.rule;
      this.#rules[at] = installed;
    } else this.#rules.splice(at, 0, installed);
    this.#changed();
    return previous;
  }

  /** Removes the rule; returns it (undefined: there was none). */
  remove(id: string): Rule | undefined {
    const at = this.#find(id);
    if (this.#rules[at]?.rule.id !== id) return undefined;
    const [removed] = this.#rules.splice(at, 1);
    this.#changed();
    return removed!.rule;
  }

  /** The latest window edge at or before `now` (-Infinity: none). */
  lastEdge(now: number): number {
    const passed = this.#edgesPassed(now);
    return passed === 0 ? -Infinity : this.#edges[passed - 1]!;
  }

  /** The first window edge after `now` (Infinity: none): what rules are in force may change there. */
  nextEdge(now: number): number {
    const passed = this.#edgesPassed(now);
    return passed === this.#edges.length ? Infinity : this.#edges[passed]!;
  }

  /** How many window edges are at or before `now` (the edges are sorted). */
  #edgesPassed(now: number): number {
    return firstAbove(this.#edges, now);
  }

  /**
   * The rules in force at `now` that match the request, in id order, into `out` (cleared first).
   * `context`/`contextDense`: the request's context products (one, a cart's, none) and their dense
   * ids, for `when.context`, which a cart matches when any of its products satisfies it.
   */
  matching(strategy: Strategy, request: RuleRequest, context: FilterContext, contextDense: readonly number[], index: AttributeIndex, now: number, out: ActiveRule[]): void {
    out.length = 0;
    /** Context filters tested so far: rules sharing one test the context product once. */
    let contexts: Map<CompiledFilter, boolean> | undefined;
    for (const installed of this.#rules) {
      const rule = installed.rule;
      if (!inForce(rule, now)) continue;
      const when = rule.when;
      if (when.strategies !== undefined && !when.strategies.includes(strategy)) continue;
      if (when.widgetIds !== undefined && (request.widgetId === undefined || !when.widgetIds.includes(request.widgetId))) continue;
      if (when.collectionIds !== undefined && (request.collectionId === undefined || !when.collectionIds.includes(request.collectionId))) continue;
      const compiled = installed.compiled(index, (expression) => this.#compile(expression, index));
      if (compiled.active === undefined) continue;
      if (compiled.context !== undefined) {
        if (context.length === 0) continue;
        let matches = contexts?.get(compiled.context);
        if (matches === undefined) {
          const filter = compiled.context;
          matches = context.length === 1 ? filter.matches(index, context, contextDense[0]!) : context.some((product, i) => filter.matches(index, [product], contextDense[i]!));
          (contexts ??= new Map()).set(filter, matches);
        }
        if (!matches) continue;
      }
      out.push(compiled.active);
    }
  }

  #compile(expression: FilterExpression, index: AttributeIndex): CompiledFilter | null {
    if (this.#compiledAt !== index.namesVersion || this.#compiled.size >= MAX_COMPILED) {
      this.#compiled.clear();
      this.#compiledAt = index.namesVersion;
    }
    const text = formatFilter(expression);
    let compiled = this.#compiled.get(text);
    if (compiled === undefined) {
      const outcome = compileFilter(expression, index);
      compiled = outcome.ok ? outcome.filter : null;
      this.#compiled.set(text, compiled);
    }
    return compiled;
  }

  #find(id: string): number {
    let low = 0;
    let high = this.#rules.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#rules[mid]!.rule.id < id) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #changed(): void {
    const edges = new Set<number>();
    for (const { rule } of this.#rules) {
      if (!rule.enabled) continue;
      if (rule.from !== undefined) edges.add(rule.from);
      if (rule.until !== undefined) edges.add(rule.until);
    }
    this.#edges = Float64Array.from([...edges].sort((a, b) => a - b));
    this.#byWidget = this.#rules.some(({ rule }) => rule.when.widgetIds !== undefined);
  }
}
