// Reads the demo store shipped in data/demo/: products.json, collections.json and events.csv
// (offsetSeconds,type,productId,sessionId,customerId,orderId; times are relative to seeding).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** data/demo/ of the package, wherever the process runs from (src/ under vitest, dist/src/ when built). */
export function defaultDemoDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'data', 'demo');
    try {
      readFileSync(path.join(candidate, 'products.json'));
      return candidate;
    } catch {
      dir = path.dirname(dir);
    }
  }
  throw new Error('data/demo/products.json not found');
}

export interface DemoEventRow {
  offsetSeconds: number;
  type: string;
  productId: string;
  sessionId: string;
  customerId?: string;
  orderId?: string;
}

export function readDemoProducts(dir: string): unknown[] {
  return JSON.parse(readFileSync(path.join(dir, 'products.json'), 'utf8')) as unknown[];
}

export interface DemoCollectionRow {
  id: string;
  title: string;
  handle: string;
  description: string;
}

export function readDemoCollections(dir: string): DemoCollectionRow[] {
  return JSON.parse(readFileSync(path.join(dir, 'collections.json'), 'utf8')) as DemoCollectionRow[];
}

export function readDemoEvents(dir: string): DemoEventRow[] {
  const lines = readFileSync(path.join(dir, 'events.csv'), 'utf8').split('\n');
  const rows: DemoEventRow[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const [offset, type, productId, sessionId, customerId, orderId] = line.split(',');
    rows.push({
      offsetSeconds: Number(offset),
      type: type!,
      productId: productId!,
      sessionId: sessionId!,
      ...(customerId ? { customerId } : {}),
      ...(orderId ? { orderId } : {}),
    });
  }
  return rows;
}
