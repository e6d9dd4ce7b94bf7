// The attributes a filter can name: the built-in ones, what kind of value each holds, and how a
// catalog product's values are read. Custom attributes (a product's `attributes`) are the rest.
import type { Product } from '../product.js';

/** text: one or more strings; number: a decimal (price); boolean: true or false. */
export type AttributeKind = 'text' | 'number' | 'boolean';

export const BUILT_IN_ATTRIBUTES: Readonly<Record<string, AttributeKind>> = {
  vendor: 'text',
  productType: 'text',
  tag: 'text',
  collection: 'text',
  price: 'number',
  compareAtPrice: 'number',
  onSale: 'boolean',
  available: 'boolean',
};

/** Names a custom attribute may not take: the built-in ones and the relative keywords. */
export function isReservedAttributeName(name: string): boolean {
  return Object.hasOwn(BUILT_IN_ATTRIBUTES, name) || name === 'same' || name === 'different';
}

/** A decimal amount as a number (NaN when absent). */
export function amountOf(amount: string | null): number {
  return amount === null ? NaN : Number(amount);
}

/** On sale: a compare-at price above the price. */
export function isOnSale(product: Product): boolean {
  const price = amountOf(product.price);
  const compareAt = amountOf(product.compareAtPrice);
  return compareAt > price;
}

/** The product's text values of a text attribute, built-in or custom (a custom number as its text). */
export function textValues(product: Product, attribute: string): readonly string[] {
  switch (attribute) {
    case 'vendor':
      return product.vendor === null ? [] : [product.vendor];
    case 'productType':
      return product.productType === null ? [] : [product.productType];
    case 'tag':
      return product.tags;
    case 'collection':
      return product.collections;
    case 'onSale':
      return [String(isOnSale(product))];
    case 'available':
      return [String(product.available)];
  }
  const value = product.attributes?.[attribute];
  return value === undefined ? [] : [String(value)];
}

/** The product's number for a numeric attribute (NaN when it has none; a custom text value has none). */
export function numberValue(product: Product, attribute: string): number {
  if (attribute === 'price') return amountOf(product.price);
  if (attribute === 'compareAtPrice') return amountOf(product.compareAtPrice);
  const value = product.attributes?.[attribute];
  return typeof value === 'number' ? value : NaN;
}
