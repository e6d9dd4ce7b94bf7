// Loads ../shared/datasets/online-retail.csv.gz cleaned as its README says: customers only, no
// cancellations, positive quantity and price, no fee codes; repeated invoice+product lines merged.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

export interface OrderLine {
  invoice: string;
  stockCode: string;
  customerId: string;
  /** Epoch ms; InvoiceDate is UK shop time without a zone, read as UTC. */
  time: number;
  quantity: number;
  price: number;
}

export interface RetailData {
  /** Merged lines in time order (ties: file order). */
  lines: OrderLine[];
  /** Most frequent description per stock code. */
  titles: Map<string, string>;
  /** First-seen order of stock codes: the "product order" ties are broken by. */
  productOrder: Map<string, number>;
}

const FEE_CODES = new Set(['POST', 'DOT', 'M', 'm', 'C2', 'D', 'S', 'BANK CHARGES', 'AMAZONFEE', 'CRUK', 'B']);

/** Run from the project root: shared/ sits beside it (override with PAIRWISE_DATASET). */
export const DEFAULT_DATASET = process.env.PAIRWISE_DATASET ?? path.resolve('../shared/datasets/online-retail.csv.gz');

function time(invoiceDate: string): number {
  return Date.parse(invoiceDate.replace(' ', 'T') + 'Z');
}

export function loadOnlineRetail(file: string = DEFAULT_DATASET): RetailData {
  const rows = parse(gunzipSync(readFileSync(file)), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const merged = new Map<string, OrderLine>();
  const descriptions = new Map<string, Map<string, number>>();
  const productOrder = new Map<string, number>();
  for (const row of rows) {
    const quantity = Number(row.Quantity);
    const price = Number(row.UnitPrice);
    if (row.InvoiceNo!.startsWith('C') || quantity <= 0 || price <= 0 || row.CustomerID === '' || FEE_CODES.has(row.StockCode!)) continue;
    const key = row.InvoiceNo + '\u0000' + row.StockCode;
    const existing = merged.get(key);
    if (existing) existing.quantity += quantity;
    else merged.set(key, { invoice: row.InvoiceNo!, stockCode: row.StockCode!, customerId: row.CustomerID!, time: time(row.InvoiceDate!), quantity, price });
    if (!productOrder.has(row.StockCode!)) productOrder.set(row.StockCode!, productOrder.size);
    const description = row.Description!.trim();
    if (description !== '') {
      let counts = descriptions.get(row.StockCode!);
      if (!counts) descriptions.set(row.StockCode!, (counts = new Map()));
      counts.set(description, (counts.get(description) ?? 0) + 1);
    }
  }
  const lines = [...merged.values()];
  lines.sort((a, b) => a.time - b.time); // stable: file order within one instant
  const titles = new Map<string, string>();
  for (const [code, counts] of descriptions) titles.set(code, [...counts].sort((a, b) => b[1] - a[1])[0]![0]);
  return { lines, titles, productOrder };
}
