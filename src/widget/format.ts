// Prices as the shopper reads them: formatted in the shop's currency when the script tag names one
// (data-currency="GBP", data-locale="en-GB"), else shown as the catalog has them.

const formatters = new Map<string, Intl.NumberFormat | null>();

export function formatPrice(amount: string, currency: string | undefined, locale: string | undefined): string {
  if (currency === undefined || !Number.isFinite(Number(amount))) return amount;
  const key = `${locale ?? ''}|${currency}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    try {
      formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      formatter = null;
    }
    formatters.set(key, formatter);
  }
  return formatter === null ? `${amount} ${currency}` : formatter.format(Number(amount));
}
