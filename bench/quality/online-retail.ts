// Loads the "Online Retail" dataset (UCI Machine Learning Repository, dataset 352, CC BY 4.0:
// https://archive.ics.uci.edu/dataset/352/online+retail), as a gzipped CSV of the spreadsheet with
// its original header (InvoiceNo,StockCode,Description,Quantity,InvoiceDate,UnitPrice,CustomerID,
// Country; InvoiceDate as YYYY-MM-DD HH:MM:SS), from the file PAIRWISE_DATASET names. Cleaned:
// customers only, no cancellations, positive quantity and price, no fee codes; repeated
// invoice+product lines merged.
import { existsSync, readFileSync } from 'node:fs';
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

/** Stock codes that are fees or adjustments, not products: postage (POST, DOT), manual (M, m), carriage (C2), discount (D), samples (S), bank and Amazon fees, commission (CRUK), bad debt (B). */
const FEE_CODES = new Set(['POST', 'DOT', 'M', 'm', 'C2', 'D', 'S', 'BANK CHARGES', 'AMAZONFEE', 'CRUK', 'B']);

/** Where the dataset is read from: the environment variable that names it. */
export const DATASET_VARIABLE = 'PAIRWISE_DATASET';

/** The dataset file PAIRWISE_DATASET names (relative to the working directory); throws, saying what to do, when it is unset or missing. */
export function datasetFile(env: NodeJS.ProcessEnv = process.env): string {
  const where = 'the UCI "Online Retail" dataset (https://archive.ics.uci.edu/dataset/352/online+retail) as a gzipped CSV with its original header';
  const value = env[DATASET_VARIABLE];
  if (value === undefined || value === '') throw new Error(`${DATASET_VARIABLE} is not set: set it to the path of ${where}, e.g. ${DATASET_VARIABLE}=path/to/online-retail.csv.gz`);
  const file = path.resolve(value);
  if (!existsSync(file)) throw new Error(`${DATASET_VARIABLE}=${value}: no such file (${file}); it should be ${where}`);
  return file;
}

function time(invoiceDate: string): number {
  return Date.parse(invoiceDate.replace(' ', 'T') + 'Z');
}

export function loadOnlineRetail(file: string = datasetFile()): RetailData {
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
