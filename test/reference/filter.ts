// Reference for engine/filters: a filter evaluated on one product at a time, reading the product's
// own fields (plain arrays and strings, no index), and the compile check in its plainest form.
import type { Product } from '../../src/engine/product.js';
import type { FilterExpression } from '../../src/engine/filters/filter-syntax.js';

const TEXT = ['vendor', 'productType', 'tag', 'collection'];
const NUMBER = ['price', 'compareAtPrice'];
const BOOLEAN = ['onSale', 'available'];

function isNumeric(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text);
}

function number(amount: string | null): number | undefined {
  return amount === null ? undefined : Number(amount);
}

/** The product's values of a text or boolean attribute, as text. */
function texts(product: Product, attribute: string): string[] {
  if (attribute === 'vendor') return product.vendor === null ? [] : [product.vendor];
  if (attribute === 'productType') return product.productType === null ? [] : [product.productType];
  if (attribute === 'tag') return [...product.tags];
  if (attribute === 'collection') return [...product.collections];
  if (attribute === 'available') return [product.available ? 'true' : 'false'];
  if (attribute === 'onSale') {
    const price = number(product.price);
    const compareAt = number(product.compareAtPrice);
    return [price !== undefined && compareAt !== undefined && compareAt > price ? 'true' : 'false'];
  }
  const custom = product.attributes?.[attribute];
  return custom === undefined ? [] : [String(custom)];
}

/** The product's number for a numeric attribute, if it has one. */
function numberOf(product: Product, attribute: string): number | undefined {
  if (attribute === 'price') return number(product.price);
  if (attribute === 'compareAtPrice') return number(product.compareAtPrice);
  const custom = product.attributes?.[attribute];
  return typeof custom === 'number' ? custom : undefined;
}

function isNumberAttribute(attribute: string): boolean {
  return NUMBER.includes(attribute);
}

function same(product: Product, context: Product, attribute: string): boolean {
  if (isNumberAttribute(attribute)) {
    const a = numberOf(product, attribute);
    const b = numberOf(context, attribute);
    return a !== undefined && b !== undefined && a === b;
  }
  const mine = texts(product, attribute);
  return texts(context, attribute).some((value) => mine.includes(value));
}

/** `context`: the request's context products (none, one, a cart's); a relative term holds when it holds for any of them, `different:` when `same:` holds for none. */
export function referenceMatches(expression: FilterExpression, product: Product, context: readonly Product[]): boolean {
  switch (expression.kind) {
    case 'and':
      return referenceMatches(expression.left, product, context) && referenceMatches(expression.right, product, context);
    case 'or':
      return referenceMatches(expression.left, product, context) || referenceMatches(expression.right, product, context);
    case 'not':
      return !referenceMatches(expression.operand, product, context);
    case 'equals': {
      if (isNumberAttribute(expression.attribute)) return numberOf(product, expression.attribute) === Number(expression.value);
      const values = texts(product, expression.attribute);
      if (values.includes(expression.value)) return true;
      const custom = !TEXT.includes(expression.attribute) && !BOOLEAN.includes(expression.attribute);
      return custom && isNumeric(expression.value) && values.includes(String(Number(expression.value)));
    }
    case 'compare': {
      const n = numberOf(product, expression.attribute);
      if (n === undefined) return false;
      const v = expression.value;
      if (expression.operator === '<') return n < v;
      if (expression.operator === '<=') return n <= v;
      if (expression.operator === '>') return n > v;
      if (expression.operator === '>=') return n >= v;
      if (expression.operator === '=') return n === v;
      return n !== v;
    }
    case 'range': {
      const n = numberOf(product, expression.attribute);
      return n !== undefined && expression.low <= n && n <= expression.high;
    }
    case 'relativeRange': {
      const n = numberOf(product, expression.attribute);
      return n !== undefined && context.some((c) => {
        const base = numberOf(c, expression.attribute);
        return base !== undefined && expression.low * base <= n && n <= expression.high * base;
      });
    }
    case 'same':
      return context.some((c) => same(product, c, expression.attribute));
    case 'different':
      return context.length > 0 && !context.some((c) => same(product, c, expression.attribute));
  }
}

/**
 * Whether a filter compiles for a catalog: every attribute built in or a custom one some product
 * has, numbers where numbers are asked, true/false for booleans, ranges not empty.
 */
export function referenceCompiles(expression: FilterExpression, catalog: readonly Product[]): boolean {
  switch (expression.kind) {
    case 'and':
    case 'or':
      return referenceCompiles(expression.left, catalog) && referenceCompiles(expression.right, catalog);
    case 'not':
      return referenceCompiles(expression.operand, catalog);
  }
  const attribute = expression.attribute;
  const custom = catalog.some((p) => p.attributes !== undefined && Object.hasOwn(p.attributes, attribute));
  const known = TEXT.includes(attribute) || NUMBER.includes(attribute) || BOOLEAN.includes(attribute) || custom;
  if (!known) return false;
  if (expression.kind === 'equals') {
    if (NUMBER.includes(attribute)) return isNumeric(expression.value);
    if (BOOLEAN.includes(attribute)) return expression.value === 'true' || expression.value === 'false';
    return true;
  }
  if (expression.kind === 'compare' || expression.kind === 'range' || expression.kind === 'relativeRange') {
    if (TEXT.includes(attribute) || BOOLEAN.includes(attribute)) return false;
    return expression.kind === 'compare' || expression.low <= expression.high;
  }
  return true;
}
