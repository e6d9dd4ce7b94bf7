// Scheduled product feeds (PUT /api/integrations/feed): each shop's feed URL fetched when due
// (conditionally: an unchanged feed is a 304), its items written as catalog upserts a thousand at a
// time, and after a complete pull the products an earlier pull brought that the feed no longer lists
// made unavailable (never after a failed or partial pull). What each pull did is kept in the shop's
// record. Run by the one process that holds the housekeeping lease (and, past one machine, the
// cluster's), so a feed is pulled once per interval whatever the number of processes.
import { Readable } from 'node:stream';
import { parseCatalog } from '../api/product.js';
import type { Product } from '../engine/product.js';
import type { Download, FeedVersion } from '../integrations/feeds/feed-download.js';
import { feedRecords, sniffFeed } from '../integrations/feeds/feed-records.js';
import type { FeedPullView, FeedView } from '../api/integrations.js';
import type { FeedPullReport, FeedSettings } from '../store/feed-settings.js';
import type { ShopRecord } from '../store/records.js';
import type { ShopStore } from '../store/shop-store.js';
import type { CatalogUpdates } from './catalog-updates.js';
import type { Log } from '../observability/log.js';

const CHUNK = 1000;
/** Refusals kept in a pull's report (the count says how many there were). */
const REPORTED_REFUSALS = 10;

export interface FeedPullsDeps {
  shops: ShopStore;
  catalog: CatalogUpdates;
  gidPlatform: string;
  download: (url: string, version: FeedVersion) => Promise<Download>;
  clock: () => number;
  log: Log;
  /** Whether this process pulls feeds (it holds the housekeeping lease, and past one machine the cluster's). */
  puller: () => boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

function pullView(report: FeedPullReport): FeedPullView {
  const { startedAt, endedAt, ...rest } = report;
  return { startedAt: iso(startedAt), endedAt: iso(endedAt), ...rest };
}

/** What GET /api/integrations/feed (and the dashboard) shows of a shop's feed settings. */
export function feedView(feed: FeedSettings | undefined): FeedView {
  if (feed === undefined) return { configured: false };
  const view: FeedView = { configured: true, url: feed.url, everyMinutes: feed.everyMinutes, nextPullAt: iso(Math.max(dueAt(feed), feed.last?.endedAt ?? 0)) };
  if (feed.last !== undefined) view.last = pullView(feed.last);
  return view;
}

/** When `feed` is next due (epoch ms): at once when it was never pulled. */
function dueAt(feed: FeedSettings): number {
  return feed.last === undefined ? 0 : feed.last.startedAt + feed.everyMinutes * 60_000;
}

/** The first bytes of a stream as text, and the whole stream again (those bytes first). */
async function peek(body: Readable): Promise<{ head: string; stream: Readable }> {
  const chunks = body[Symbol.asyncIterator]();
  const first = await chunks.next();
  const head = first.done ? '' : Buffer.from(first.value as Buffer).toString('utf8', 0, 4096);
  const stream = Readable.from(
    (async function* () {
      if (!first.done) yield first.value as Buffer;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value as Buffer;
      }
    })(),
  );
  return { head, stream };
}

export class FeedPulls {
  readonly #running = new Set<string>();

  constructor(readonly deps: FeedPullsDeps) {}

  /** Sets the shop's feed (a new URL is pulled at once, by the process that pulls feeds); resolves with what GET shows. */
  async set(shopId: string, settings: { url: string; everyMinutes: number }, now: number): Promise<FeedView> {
    await this.deps.shops.changeFeed(shopId, { action: 'set', ...settings }, now);
    return this.view(shopId);
  }

  /** Stops pulling the shop's feed (its products stay as the last pull left them). */
  async clear(shopId: string, now: number): Promise<FeedView> {
    await this.deps.shops.changeFeed(shopId, { action: 'clear' }, now);
    return this.view(shopId);
  }

  view(shopId: string): FeedView {
    return feedView(this.deps.shops.getShop(shopId)?.feed);
  }

  /** A shop's record changed (whichever process wrote it): a feed never pulled is pulled now, here if this process pulls feeds. */
  shopChanged(shopId: string, record: ShopRecord): void {
    if (record.feed === undefined || record.feed.last !== undefined || this.#running.has(shopId) || !this.deps.puller()) return;
    // After the change is applied everywhere in this process: the pull reads the record it set.
    setImmediate(() => void this.pull(shopId).catch((error: unknown) => this.deps.log(`feed of shop "${shopId}" failed: ${String(error)}`, { event: 'feed-pull-failed', level: 'error', shop: shopId, error: String(error) })));
  }

  /** Pulls every shop's feed that is due at `now` (one at a time); resolves with how many were pulled. */
  async pullDue(now: number): Promise<number> {
    if (!this.deps.puller()) return 0;
    let pulled = 0;
    for (const shopId of this.deps.shops.listShops()) {
      const feed = this.deps.shops.getShop(shopId)?.feed;
      if (feed === undefined || this.#running.has(shopId)) continue;
      if (dueAt(feed) > now) continue;
      await this.pull(shopId);
      pulled++;
    }
    return pulled;
  }

  /** Pulls the shop's feed now; resolves with what the pull did (also kept in the shop's record). */
  async pull(shopId: string): Promise<FeedPullReport | undefined> {
    const feed = this.deps.shops.getShop(shopId)?.feed;
    if (feed === undefined || this.#running.has(shopId)) return undefined;
    this.#running.add(shopId);
    const report: FeedPullReport = { startedAt: this.deps.clock(), endedAt: 0, complete: false, seen: 0, changed: 0, refused: 0, unlisted: 0 };
    let version: FeedVersion = {};
    try {
      const download = await this.deps.download(feed.url, { ...(feed.etag ? { etag: feed.etag } : {}), ...(feed.lastModified ? { lastModified: feed.lastModified } : {}) });
      if (download.status === 'not-modified') {
        report.complete = true;
        report.notModified = true;
      } else {
        version = download.version;
        await this.#read(shopId, download, report);
      }
    } catch (error) {
      report.error = (error as Error).message;
    } finally {
      this.#running.delete(shopId);
    }
    report.endedAt = this.deps.clock();
    this.deps.log(`feed of shop "${shopId}": ${report.error ?? (report.notModified ? 'not modified' : `${report.seen} products seen, ${report.changed} changed, ${report.refused} refused, ${report.unlisted} no longer listed`)}`, {
      event: report.error === undefined ? 'feed-pull' : 'feed-pull-failed',
      level: report.error === undefined ? 'info' : 'warn',
      shop: shopId,
      ...(report.error === undefined ? {} : { error: report.error }),
      notModified: report.notModified === true,
      seen: report.seen,
      changed: report.changed,
      refused: report.refused,
      unlisted: report.unlisted,
      seconds: (report.endedAt - report.startedAt) / 1000,
    });
    await this.deps.shops.changeFeed(shopId, { action: 'pulled', url: feed.url, report, ...(version.etag ? { etag: version.etag } : {}), ...(version.lastModified ? { lastModified: version.lastModified } : {}) });
    return report;
  }

  async #read(shopId: string, download: Extract<Download, { status: 'ok' }>, report: FeedPullReport): Promise<void> {
    const { head, stream } = await peek(download.body);
    const format = sniffFeed(head);
    if (format === undefined) {
      stream.destroy();
      throw new Error(`${download.url} is not a product feed (${download.contentType ?? 'no content type'}, starting "${head.slice(0, 40).replace(/\s+/g, ' ')}"): give the URL of a Google Merchant Center feed, XML or tab-separated`);
    }
    const seen = new Set<string>();
    let chunk: Product[] = [];
    const refusals: string[] = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      report.changed += (await this.deps.catalog.upsert(shopId, chunk, this.deps.clock())).upserted;
      chunk = [];
    };
    for await (const record of feedRecords(stream, format)) {
      if (record.error !== undefined) {
        report.refused++;
        if (refusals.length < REPORTED_REFUSALS) refusals.push(`${record.line}: ${record.error}`);
        continue;
      }
      const parsed = parseCatalog({ products: [record.value] }, this.deps.gidPlatform, this.deps.clock());
      if (!parsed.ok) {
        report.refused++;
        if (refusals.length < REPORTED_REFUSALS) refusals.push(`${record.line}: ${parsed.errors.map((e) => `${e.pointer.replace(/^\/products\/0/, '') || '/'} ${e.detail}`).join('; ')}`);
        continue;
      }
      const product: Product = { ...parsed.products[0]!, source: 'feed' };
      seen.add(product.id);
      chunk.push(product);
      if (chunk.length >= CHUNK) await flush();
    }
    await flush();
    report.seen = seen.size;
    if (refusals.length > 0) report.refusals = refusals;
    report.complete = true;
    // Read to its end: what earlier pulls brought and this one no longer lists is not for sale.
    const unlisted: Product[] = [];
    for (const product of this.deps.catalog.store.readShop(shopId)) {
      if (product.source === 'feed' && product.available && !seen.has(product.id)) unlisted.push({ ...product, available: false, updatedAt: this.deps.clock() });
    }
    for (let i = 0; i < unlisted.length; i += CHUNK) report.unlisted += (await this.deps.catalog.upsert(shopId, unlisted.slice(i, i + CHUNK), this.deps.clock())).upserted;
  }
}
