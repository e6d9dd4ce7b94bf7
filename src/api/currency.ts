// The shop's currency (PUT /api/shop/currency): the wire type and its validator. Catalog prices and
// purchase prices are plain numbers; this names the currency they are in, for the dashboard's money.
import typia, { type tags } from 'typia';
import { invalidFields, type FieldError } from '../errors.js';
import { typiaPathToPointer } from './json-pointer.js';

export interface WireCurrency {
  /** The ISO 4217 code of the currency the shop's prices are in, e.g. `EUR`, `USD`, `GBP`. */
  currency: string & tags.Pattern<'^[A-Z]{3}$'>;
}

/** The setting as answered (and as GET /api/shop shows it); null: not set, amounts are shown without one. */
export interface ShopCurrency {
  currency: string | null;
}

export type CurrencyParse = { ok: true; currency: string } | { ok: false; errors: FieldError[] };

const validate = typia.createValidate<WireCurrency>();
/** Codes this runtime can format (Intl), so that a typo is refused instead of shown. */
const KNOWN = new Set(Intl.supportedValuesOf('currency'));

/** Never throws: every problem is a field error with its JSON pointer. */
export function parseCurrency(input: unknown): CurrencyParse {
  const result = validate(input);
  if (!result.success) return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: `must be ${e.expected.replace(/"/g, "'")}` })) };
  if (!KNOWN.has(result.data.currency)) return { ok: false, errors: [{ pointer: '/currency', detail: `"${result.data.currency}" is not an ISO 4217 currency code` }] };
  return { ok: true, currency: result.data.currency };
}

/** PUT /api/shop/currency's body: the ISO 4217 code (see parseCurrency); throws invalid_currency. */
export function currencyBody(input: unknown): string {
  const parsed = parseCurrency(input);
  if (!parsed.ok) throw invalidFields('invalid_currency', parsed.errors, 'body');
  return parsed.currency;
}
