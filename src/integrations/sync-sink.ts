// Where a platform's sync writes (the data dir, or a running server's API: the CLI's import sinks) and
// where it keeps its place between pages, so that an interrupted sync goes on from there.

/** What a sink did with a chunk of records (products or events). */
export interface ChunkOutcome {
  accepted: number;
  duplicates: number;
  refused: { index: number; reason: string }[];
}

export interface SyncSink {
  readonly eventsPerChunk: number;
  products(records: unknown[]): Promise<ChunkOutcome>;
  events(records: unknown[]): Promise<ChunkOutcome>;
}

/** A sync's saved place: loaded at its start, saved after every page written. */
export interface SyncStateStore<S> {
  load(): S | undefined;
  save(state: S): void;
}

/** What a sync did, summed over its pages. */
export interface SyncCounts {
  products: number;
  productsUnchanged: number;
  orders: number;
  /** Orders that give no purchases (test, cancelled or unpaid orders, custom items only). */
  ordersSkipped: number;
  purchases: number;
  purchasesAlreadyStored: number;
  refused: number;
}

export function emptyCounts(): SyncCounts {
  return { products: 0, productsUnchanged: 0, orders: 0, ordersSkipped: 0, purchases: 0, purchasesAlreadyStored: 0, refused: 0 };
}

/** A platform item mapped: a record to write, or why it cannot be (a refusal), or why it gives nothing (a skip). */
export type Mapped<T> = { record: T } | { refused: string } | { skipped: true };

/** Maps a page of products and writes them through the sink in one chunk; refusals are counted and reported. */
export async function writeProducts(sink: SyncSink, counts: SyncCounts, items: readonly Record<string, unknown>[], map: (item: Record<string, unknown>) => Mapped<unknown>, report: (line: string) => void): Promise<void> {
  const records = mapAll(counts, items, map, 'product', report);
  if (records.length === 0) return;
  const outcome = await sink.products(records);
  counts.products += outcome.accepted;
  counts.productsUnchanged += outcome.duplicates;
  counts.refused += outcome.refused.length;
  for (const refused of outcome.refused) report(`product ${String((records[refused.index] as { id: string }).id)}: ${refused.reason}`);
}

/** Maps a page of orders to their purchases and writes them through the sink, a chunk at a time. */
export async function writeOrders(sink: SyncSink, counts: SyncCounts, items: readonly Record<string, unknown>[], map: (item: Record<string, unknown>) => Mapped<readonly unknown[]>, report: (line: string) => void): Promise<void> {
  const events = mapAll(counts, items, (item) => {
    const mapped = map(item);
    if (!('refused' in mapped)) counts.orders++;
    return mapped;
  }, 'order', report).flat();
  for (let i = 0; i < events.length; i += sink.eventsPerChunk) {
    const chunk = events.slice(i, i + sink.eventsPerChunk);
    const outcome = await sink.events(chunk);
    counts.purchases += outcome.accepted;
    counts.purchasesAlreadyStored += outcome.duplicates;
    counts.refused += outcome.refused.length;
    for (const refused of outcome.refused) report(`order line ${String((chunk[refused.index] as { messageId: string }).messageId)}: ${refused.reason}`);
  }
}

function mapAll<T>(counts: SyncCounts, items: readonly Record<string, unknown>[], map: (item: Record<string, unknown>) => Mapped<T>, what: string, report: (line: string) => void): T[] {
  const records: T[] = [];
  for (const item of items) {
    const mapped = map(item);
    if ('record' in mapped) records.push(mapped.record);
    else if ('refused' in mapped) {
      counts.refused++;
      report(`${what} ${String(item.id)}: ${mapped.refused}`);
    } else if (what === 'order') counts.ordersSkipped++;
  }
  return records;
}
