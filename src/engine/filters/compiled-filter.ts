// A parsed filter checked against a shop's attributes (unknown attributes and values of the wrong
// kind are errors at their position) and evaluated on its AttributeIndex into a MatchSet.
// A filter with no relative term selects the same set for every request: that set is kept until
// the index changes. A relative one (same:, different:, 0.5x..2x) is evaluated per context product.
import type { Product } from '../product.js';
import type { AttributeIndex } from './attribute-index.js';
import { BUILT_IN_ATTRIBUTES, type AttributeKind, numberValue, textValues } from './attributes.js';
import { formatFilter, type FilterError, type FilterExpression } from './filter-syntax.js';
import { MatchSet } from './match-set.js';

/** 'custom': a catalog product's own attribute, text or number. */
type Kind = AttributeKind | 'custom';

const BUILT_IN_LIST = Object.keys(BUILT_IN_ATTRIBUTES).join(', ');

export class CompiledFilter {
  #selected: { version: number; set: MatchSet } | undefined;

  /** Use compileFilter. */
  constructor(
    readonly expression: FilterExpression,
    /** The canonical text (formatFilter): equal for filters that select the same products. */
    readonly text: string,
    /** Whether it names the context product (same:, different:, a relative range). */
    readonly relative: boolean,
    readonly kinds: ReadonlyMap<string, Kind>,
  ) {}

  /**
   * The catalog products it selects, for a request whose context product is `context` (relative
   * terms select nothing without one). Valid until the index changes; do not modify it.
   */
  select(index: AttributeIndex, context: Product | undefined): MatchSet {
    if (this.relative) return this.#evaluate(this.expression, index, context);
    const selected = this.#selected;
    if (selected !== undefined && selected.version === index.version && selected.set.size === index.size) return selected.set;
    const set = this.#evaluate(this.expression, index, undefined);
    this.#selected = { version: index.version, set };
    return set;
  }

  #evaluate(node: FilterExpression, index: AttributeIndex, context: Product | undefined): MatchSet {
    switch (node.kind) {
      case 'and':
        return this.#evaluate(node.left, index, context).and(this.#evaluate(node.right, index, context));
      case 'or':
        return this.#evaluate(node.left, index, context).or(this.#evaluate(node.right, index, context));
      case 'not': {
        const all = new MatchSet(index.size);
        index.addPresent(all);
        return all.andNot(this.#evaluate(node.operand, index, context));
      }
      case 'equals': {
        const set = new MatchSet(index.size);
        const kind = this.kinds.get(node.attribute)!;
        if (kind === 'number') {
          const value = Number(node.value);
          index.addBetween(node.attribute, value, true, value, true, set);
        } else {
          index.addHolding(node.attribute, node.value, set);
          // A custom number is indexed by its canonical text: `weight:5.0` finds 5 too.
          const canonical = kind === 'custom' ? customText(node.value) : node.value;
          if (canonical !== node.value) index.addHolding(node.attribute, canonical, set);
        }
        return set;
      }
      case 'compare': {
        const set = new MatchSet(index.size);
        const { attribute, value } = node;
        switch (node.operator) {
          case '<': index.addBetween(attribute, -Infinity, true, value, false, set); break;
          case '<=': index.addBetween(attribute, -Infinity, true, value, true, set); break;
          case '>': index.addBetween(attribute, value, false, Infinity, true, set); break;
          case '>=': index.addBetween(attribute, value, true, Infinity, true, set); break;
          case '=': index.addBetween(attribute, value, true, value, true, set); break;
          case '!=':
            index.addBetween(attribute, -Infinity, true, value, false, set);
            index.addBetween(attribute, value, false, Infinity, true, set);
            break;
        }
        return set;
      }
      case 'range': {
        const set = new MatchSet(index.size);
        index.addBetween(node.attribute, node.low, true, node.high, true, set);
        return set;
      }
      case 'relativeRange': {
        const set = new MatchSet(index.size);
        const base = context === undefined ? NaN : numberValue(context, node.attribute);
        if (base === base) index.addBetween(node.attribute, node.low * base, true, node.high * base, true, set);
        return set;
      }
      case 'same':
      case 'different': {
        const same = new MatchSet(index.size);
        if (context === undefined) return same;
        if (this.kinds.get(node.attribute) === 'number') {
          const value = numberValue(context, node.attribute);
          if (value === value) index.addBetween(node.attribute, value, true, value, true, same);
        } else {
          for (const value of textValues(context, node.attribute)) index.addHolding(node.attribute, value, same);
        }
        if (node.kind === 'same') return same;
        const all = new MatchSet(index.size);
        index.addPresent(all);
        return all.andNot(same);
      }
    }
  }
}

/** A custom attribute's value as indexed: a number by its canonical text (`weight:5.0` finds 5). */
function customText(value: string): string {
  return /^-?\d+(\.\d+)?$/.test(value) ? String(Number(value)) : value;
}

class CompileFailure {
  constructor(readonly error: FilterError) {}
}

function fail(position: number, expected: string, detail: string): never {
  throw new CompileFailure({ position, expected, detail: `${detail} at position ${position}` });
}

function kindOf(attribute: string, position: number, index: AttributeIndex): Kind {
  const builtIn = BUILT_IN_ATTRIBUTES[attribute];
  if (builtIn !== undefined && Object.hasOwn(BUILT_IN_ATTRIBUTES, attribute)) return builtIn;
  if (index.hasCustom(attribute)) return 'custom';
  return fail(position, `an attribute (${BUILT_IN_LIST}, or a custom attribute of the catalog)`, `unknown attribute '${attribute.slice(0, 64)}'`);
}

function check(node: FilterExpression, index: AttributeIndex, kinds: Map<string, Kind>): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
    {
      const left = check(node.left, index, kinds);
      return check(node.right, index, kinds) || left;
    }
    case 'not':
      return check(node.operand, index, kinds);
  }
  const kind = kindOf(node.attribute, node.kind === 'same' || node.kind === 'different' ? node.position + node.kind.length + 1 : node.position, index);
  kinds.set(node.attribute, kind);
  if (node.kind === 'equals') {
    if (kind === 'number' && !/^-?\d+(\.\d+)?$/.test(node.value)) fail(node.position, 'a number', `${node.attribute} holds numbers, not '${node.value.slice(0, 40)}'`);
    if (kind === 'boolean' && node.value !== 'true' && node.value !== 'false') fail(node.position, 'true or false', `${node.attribute} is true or false, not '${node.value.slice(0, 40)}'`);
    return false;
  }
  if (node.kind === 'compare' || node.kind === 'range' || node.kind === 'relativeRange') {
    if (kind !== 'number' && kind !== 'custom') fail(node.position, 'a numeric attribute (price, compareAtPrice or a custom number)', `${node.attribute} does not hold numbers`);
    if (node.kind === 'range' && node.low > node.high) fail(node.position, 'a range whose low end is at most its high end', `${node.attribute}:${node.low}..${node.high} is empty`);
    if (node.kind === 'relativeRange' && node.low > node.high) fail(node.position, 'a range whose low factor is at most its high factor', `${node.attribute}:${node.low}x..${node.high}x is empty`);
    return node.kind === 'relativeRange';
  }
  return true; // same: / different:
}

/**
 * The filter compiled for a shop whose attributes `index` holds, or the first error: an attribute
 * no product has (custom attributes exist while some catalog product has them), a value of the
 * wrong kind. The result holds until index.namesVersion changes.
 */
export function compileFilter(expression: FilterExpression, index: AttributeIndex): { ok: true; filter: CompiledFilter } | { ok: false; error: FilterError } {
  const kinds = new Map<string, Kind>();
  try {
    const relative = check(expression, index, kinds);
    return { ok: true, filter: new CompiledFilter(expression, formatFilter(expression), relative, kinds) };
  } catch (failure) {
    if (failure instanceof CompileFailure) return { ok: false, error: failure.error };
    throw failure;
  }
}
