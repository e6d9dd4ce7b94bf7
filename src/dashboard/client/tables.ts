// The overview's numbers and tables: totals, per strategy, per widget, and the top recommended
// products, each rate with its 95 % Wilson interval. Figures a storefront reported (revenue from a
// public key's purchases, widget names it sent) say so.
import { el, fill } from './dom';
import { amount, count, shopCurrency, withInterval } from './format';
import type { Metrics, StatsAnswer } from './types';

export function fillTotals(box: HTMLElement, totals: Metrics): void {
  const card = (label: string, value: string, note: string, metric: string) =>
    el('div', { class: 'kpi', 'data-kpi': metric }, el('span', { class: 'kpi-label' }, label), el('strong', {}, value), el('span', { class: 'kpi-note' }, note));
  fill(
    box,
    card('Revenue attributed', amount(totals.revenue), `${count(totals.orders)} orders${storefrontNote(totals)}${shopCurrency() === undefined ? ' · no currency set (PUT /api/shop/currency)' : ''}`, 'revenue'),
    card('Click-through rate', withInterval(totals.ctr).split(' (')[0]!, `${count(totals.clicks)} clicks of ${count(totals.impressions)} impressions`, 'ctr'),
    card('Conversion rate', withInterval(totals.conversionRate).split(' (')[0]!, `${count(totals.convertedClicks)} of ${count(totals.clicks)} clicks led to an order`, 'conversion'),
    card('Add-to-cart rate', withInterval(totals.addToCartRate).split(' (')[0]!, `${count(totals.cartedClicks)} clicks led to a cart · ${count(totals.addToCarts)} add-to-carts`, 'add-to-cart'),
  );
}

/** What part of the revenue a storefront reported; empty when none. */
function storefrontNote(m: Metrics): string {
  return m.storefrontRevenue > 0 ? ` · ${amount(m.storefrontRevenue)} storefront-reported` : '';
}

/** Revenue, with the storefront-reported part when there is one. */
function revenue(m: Metrics): string {
  return m.storefrontRevenue > 0 ? `${amount(m.revenue)} (${amount(m.storefrontRevenue)} storefront-reported)` : amount(m.revenue);
}

const METRIC_HEADS = ['Impressions', 'Clicks', 'CTR (95 % interval)', 'Add-to-carts', 'Orders', 'Conversion (95 % interval)', 'Revenue'];

function metricCells(m: Metrics): HTMLTableCellElement[] {
  return [count(m.impressions), count(m.clicks), withInterval(m.ctr), count(m.addToCarts), count(m.orders), withInterval(m.conversionRate), revenue(m)].map((text) =>
    el('td', { class: 'num' }, text),
  );
}

function table(caption: string, heads: string[], rows: HTMLTableRowElement[], empty: string): HTMLElement {
  const head = el('tr', {}, ...heads.map((h, i) => el('th', { scope: 'col', class: i === 0 ? undefined : 'num' }, h)));
  const body = rows.length > 0 ? rows : [el('tr', {}, el('td', { colspan: String(heads.length), class: 'empty' }, empty))];
  return el('div', { class: 'scroll' }, el('table', {}, el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, ...body)));
}

/** Per strategy or per widget. */
export function fillGroups(box: HTMLElement, caption: string, keyHead: string, stats: StatsAnswer): void {
  // A widget name the merchant did not register came from a storefront (anyone with the public key).
  const name = (g: StatsAnswer['groups'][number]) =>
    g.registered === false && g.key !== '(none)' && g.key !== '(other)' ? [g.key, el('span', { class: 'id' }, ' storefront-named')] : [g.key];
  // Per strategy: what the rules' pins earned beside the strategy's own (organic) items.
  const split = stats.groups.some((g) => g.pinned !== undefined);
  const pinCells = (g: StatsAnswer['groups'][number]) =>
    split ? [el('td', { class: 'num', 'data-pinned': 'clicks' }, count(g.pinned?.clicks ?? 0)), el('td', { class: 'num', 'data-pinned': 'revenue' }, amount(g.pinned?.revenue ?? 0)), el('td', { class: 'num', 'data-organic': 'revenue' }, amount(g.organic?.revenue ?? g.revenue))] : [];
  const rows = stats.groups.map((g) => el('tr', {}, el('th', { scope: 'row' }, ...name(g)), ...metricCells(g), ...pinCells(g)));
  const heads = split ? [keyHead, ...METRIC_HEADS, 'Pinned clicks', 'Pinned revenue', 'Organic revenue'] : [keyHead, ...METRIC_HEADS];
  fill(box, table(caption, heads, rows, 'No recommendation traffic in this range.'));
}

export function fillTopProducts(box: HTMLElement, stats: StatsAnswer, limit = 15): void {
  const rows = stats.groups.slice(0, limit).map((g, i) =>
    el(
      'tr',
      {},
      el('td', { class: 'num' }, i + 1),
      el('th', { scope: 'row' }, el('span', { class: 'title' }, g.title ?? g.key), el('span', { class: 'id' }, ` ${g.key}`)),
      el('td', { class: 'num' }, count(g.clicks)),
      el('td', { class: 'num' }, count(g.addToCarts)),
      el('td', { class: 'num' }, count(g.orders)),
      el('td', { class: 'num' }, withInterval(g.conversionRate)),
      el('td', { class: 'num' }, revenue(g)),
    ),
  );
  // The section's heading names the table; its caption says what it ranks by.
  const note = `The ${limit} products recommendations earned most from, by revenue${stats.productsFrom === undefined ? '' : ` (per-product numbers from ${stats.productsFrom})`}`;
  // Per product only clicks and what they earned are counted (no impressions: see docs/analytics.md).
  fill(box, table(note, ['#', 'Product', 'Clicks', 'Add-to-carts', 'Orders', 'Conversion (95 % interval)', 'Revenue'], rows, 'No recommended product was clicked in this range.'));
}
