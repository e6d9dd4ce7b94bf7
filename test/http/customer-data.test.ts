// GET and DELETE /api/customers/{id} against the real server and LMDB: the export pages through
// every stored event of the customer; an erasure leaves no event of theirs in the log, no state in
// any answer or snapshot, and a restart does not bring them back.
import { asBinary } from 'lmdb';
import { afterEach, describe, expect, test } from 'vitest';
import { LAST_POSITION, openDatabases, type Databases } from '../../src/store/database.js';
import { isChange } from '../../src/store/log-entry.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { StreamClient } from '../ws/stream-client.js';
import { ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
/** A customerId no other byte sequence of the data dir spells by chance. */
const ERASED = 'cust-gdpr-7731';
const KEPT = 'cust-kept-5';

interface ExportBody {
  customerId: string;
  events: { position: number; eventId: string; type: string; productId: string; sessionId: string; customerId: string; timestamp: string; metadata?: unknown }[];
  nextCursor: string | null;
  models: { recentlyViewed: { productId: string }[]; affinities: string[]; purchases: string[]; dismissed: string[] };
}

/** The products a recently-viewed answer took from the shopper's views (not its backfill). */
function viewedOnly(body: RecommendationBody): string[] {
  return ids({ ...body, products: body.products.filter((p) => p.strategy === 'recently-viewed') });
}

/** Every event of the shop's raw log entries naming the customer (each entry decoded as stored, not through the server's read path). */
function eventsInRawLog(dbs: Databases, shopId: string, customerId: string): unknown[] {
  const found: unknown[] = [];
  for (const { value } of dbs.log.getRange({ start: [shopId, 0], end: [shopId, LAST_POSITION] })) {
    if (isChange(value)) continue;
    for (const event of value.events) if (event.customerId === customerId) found.push(event);
  }
  return found;
}

/** Whether any stored snapshot byte (headers and parts, every shop) spells `text`. */
function snapshotsSpell(dbs: Databases, text: string): boolean {
  const needle = Buffer.from(text);
  for (const { key } of dbs.snapshots.getRange()) if (dbs.snapshots.getBinary(key)!.includes(needle)) return true;
  for (const { value } of dbs.snapshotParts.getRange()) if (Buffer.from(value).includes(needle)) return true;
  return false;
}

/** The stopped data dir at `path` as a version without the index left it: no rows in these tables, no mark that the log is indexed. */
async function withoutIndex(path: string, tables: readonly ('customerEvents' | 'sessionEntries' | 'erasuresNamed')[], doneKey: string): Promise<void> {
  const raw = openDatabases(path);
  raw.root.transactionSync(() => {
    for (const table of tables) for (const key of raw[table].getKeys()) raw[table].remove(key as never);
    raw.meta.remove(doneKey);
  });
  for (const table of tables) expect([...raw[table].getKeys()]).toEqual([]);
  await raw.root.close();
}

describe('customer data', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(dataDir?: string, shop = started[0]?.shop): Promise<TestService> {
    const t = await startTestService({ clock: () => NOW, ...(dataDir ? { dataDir } : {}), ...(shop ? { shop } : {}) });
    started.push(t);
    return t;
  }

  async function exportOf(t: TestService, customerId: string, query = ''): Promise<ExportBody> {
    const res = await t.fetch(`/api/customers/${encodeURIComponent(customerId)}${query}`, { key: t.shop.secretKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    return (await res.json()) as ExportBody;
  }

  /** The customer's answers as the merchant's server asks for them (a secret key may name any customer). */
  const answersFor = async (t: TestService, customerId: string) => ({
    recent: viewedOnly(await recommendations(t, `strategy=recently-viewed&customerId=${customerId}`, t.shop.secretKey)),
    personal: await recommendations(t, `strategy=personalized&customerId=${customerId}&limit=5`, t.shop.secretKey),
  });

  async function arrange(t: TestService): Promise<void> {
    await putProducts(t, ['1', '2', '3', '4', '5', '6', '7', '8'].map((id) => wireProduct(id)));
    // The erased customer across two sessions, with a messageId; another customer in one of those sessions' neighbours.
    await postEvents(t, [
      { type: 'view', productId: '1', sessionId: 'erased-s1', customerId: ERASED },
      { type: 'view', productId: '2', sessionId: 'other-s', customerId: KEPT },
      { type: 'add_to_cart', productId: '2', sessionId: 'erased-s1', customerId: ERASED, metadata: { note: 'gift' } },
      { type: 'view', productId: '3', sessionId: 'other-s', customerId: KEPT },
    ], t.shop.secretKey);
    await postEvents(t, [
      { type: 'purchase', productId: '2', sessionId: 'erased-s2', customerId: ERASED, messageId: 'order-5001-line-1' },
      { type: 'dismiss', productId: '4', sessionId: 'erased-s2', customerId: ERASED },
      { type: 'view', productId: '5', sessionId: 'erased-s2', customerId: ERASED },
      { type: 'view', productId: '6', sessionId: 'anon-s' },
    ], t.shop.secretKey);
  }

  test('When a customer is exported a page at a time, then the pages hold each of their stored events once, in log order, and the models show what they hold', async () => {
    const t = await start();
    await arrange(t);
    const whole = await exportOf(t, ERASED);
    expect(whole.customerId).toBe(ERASED);
    expect(whole.events.map((e) => [e.type, e.productId, e.sessionId])).toEqual([
      ['view', '1', 'erased-s1'],
      ['add_to_cart', '2', 'erased-s1'],
      ['purchase', '2', 'erased-s2'],
      ['dismiss', '4', 'erased-s2'],
      ['view', '5', 'erased-s2'],
    ]);
    expect(whole.events[1]!.metadata).toEqual({ note: 'gift' });
    expect(whole.events.every((e) => e.customerId === ERASED && e.timestamp === new Date(NOW).toISOString())).toBe(true);
    expect(whole.nextCursor).toBeNull();
    expect(whole.models.recentlyViewed.map((v) => v.productId)).toEqual(['5', '1']);
    expect(whole.models.purchases).toEqual(['2']);
    expect(whole.models.dismissed).toEqual(['4']);
    expect(whole.models.affinities).toContain('2');

    const paged: ExportBody['events'] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await exportOf(t, ERASED, `?limit=2${cursor}`);
      paged.push(...page.events);
      if (page.nextCursor === null) break;
      cursor = `&cursor=${page.nextCursor}`;
    }
    expect(paged).toEqual(whole.events);

    const stranger = await exportOf(t, 'never-seen');
    expect(stranger).toEqual({ customerId: 'never-seen', events: [], nextCursor: null, models: { recentlyViewed: [], affinities: [], purchases: [], dismissed: [] } });
  });

  test('When a data dir holds events stored before the customer index existed, then the next start indexes them once and the export finds them', async () => {
    const t = await start();
    await arrange(t);
    const expected = (await exportOf(t, ERASED)).events;
    await t.stop();
    await withoutIndex(t.service.dbs.path, ['customerEvents'], 'customerIndex');

    const again = await start(t.dataDir, t.shop);
    expect((await exportOf(again, ERASED)).events).toEqual(expected);
    expect((await exportOf(again, KEPT)).events.map((e) => e.productId)).toEqual(['2', '3']);
  });

  test("When a data dir holds events stored before the session index existed, then the next start indexes their sessions once, an erasure finds the sessions' other events, and an earlier erasure's names go", async () => {
    const t = await start();
    await arrange(t);
    await postEvents(t, [{ type: 'view', productId: '7', sessionId: 'erased-s1' }]);
    expect((await t.fetch(`/api/customers/${KEPT}`, { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200); // as an earlier version left it: named
    await t.stop();
    await withoutIndex(t.service.dbs.path, ['sessionEntries', 'erasuresNamed'], 'sessionIndex');

    const again = await start(t.dataDir, t.shop);
    const res = await again.fetch(`/api/customers/${ERASED}`, { method: 'DELETE', key: again.shop.secretKey });
    expect(await res.json()).toMatchObject({ events: 6 });
    expect([...again.service.shopLog.read(t.shop.shopId)].some((r) => r.event?.sessionId === 'erased-s1')).toBe(false);
    await again.service.pruneLog();
    const { shopId } = t.shop;
    const logBytes = [...again.service.dbs.log.getKeys({ start: [shopId, 0], end: [shopId, LAST_POSITION] })].map((key) => again.service.dbs.log.getBinary(key)!);
    for (const name of [KEPT, ERASED]) expect(logBytes.some((bytes) => bytes.includes(Buffer.from(name))), name).toBe(false);
  });

  test('When the export is asked with a public key or a bad cursor, then it is refused with a stable code', async () => {
    const t = await start();
    expect((await t.fetch(`/api/customers/${ERASED}`)).status).toBe(403);
    const bad = await t.fetch(`/api/customers/${ERASED}?cursor=abc`, { key: t.shop.secretKey });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('invalid_cursor');
    const long = await t.fetch(`/api/customers/${'x'.repeat(129)}`, { key: t.shop.secretKey });
    expect(((await long.json()) as { code: string }).code).toBe('invalid_query');
    expect((await t.fetch(`/api/customers/${ERASED}`, { method: 'DELETE' })).status).toBe(403);
  });

  test('When a customer is erased, then no answer, export, log entry or snapshot holds them, the log keeps its positions, and a restart does not bring them back', async () => {
    const t = await start();
    await arrange(t);
    const { shopId } = t.shop;
    const keptBefore = await answersFor(t, KEPT);
    const before = await answersFor(t, ERASED);
    expect(before.recent).toEqual(['5', '1']);
    expect(before.personal.meta.modelLevel).toBe(3);
    await t.service.snapshot(); // a snapshot that holds the customer, which the erasure must replace
    expect(snapshotsSpell(t.service.dbs, ERASED)).toBe(true);
    const head = t.service.shopLog.head(shopId);

    const res = await t.fetch(`/api/customers/${ERASED}`, { method: 'DELETE', key: t.shop.secretKey });
    expect(res.status).toBe(200);
    const erased = (await res.json()) as { success: boolean; erased: string; events: number; position: string };
    expect(erased).toMatchObject({ success: true, erased: ERASED, events: 5 });
    expect(erased.position).toBe(t.service.pipeline.positionToken(head + 1));

    const check = async (s: TestService) => {
      expect((await exportOf(s, ERASED)).events).toEqual([]);
      expect((await exportOf(s, ERASED)).models).toEqual({ recentlyViewed: [], affinities: [], purchases: [], dismissed: [] });
      const after = await answersFor(s, ERASED);
      expect(after.recent).toEqual([]);
      expect(after.personal.meta.modelLevel).toBeLessThan(3);
      expect(viewedOnly(await recommendations(s, 'strategy=recently-viewed&sessionId=erased-s2'))).toEqual([]);
      expect(await answersFor(s, KEPT)).toEqual(keptBefore);
      expect(eventsInRawLog(s.service.dbs, shopId, ERASED)).toEqual([]);
      // Every position is still there: the erased events are markers, the others where they were.
      const log = new LmdbShopLog(s.service.dbs);
      expect([...log.read(shopId)].map((r) => r.position)).toEqual(Array.from({ length: head + 1 }, (_, i) => i + 1));
      expect([...s.service.dbs.customerEvents.getKeys({ start: [shopId, ERASED, 0], end: [shopId, ERASED, LAST_POSITION] })]).toEqual([]);
      expect(s.service.dbs.dedup.get([shopId, 's:order-5001-line-1'])).toBeUndefined();
    };
    await check(t);
    // The housekeeper snapshots the erasure at once: the snapshot on disk no longer names them.
    await expect.poll(() => snapshotsSpell(t.service.dbs, ERASED)).toBe(false);

    await t.stop();
    const again = await start(t.dataDir, t.shop);
    await check(again);
    expect(snapshotsSpell(again.service.dbs, ERASED)).toBe(false);
  });

  test("When the customer's sessions also sent events without the customerId, then the erasure takes those too, GET /api/shop no longer counts them, and after the next housekeeping round no log byte names them", async () => {
    const t = await start();
    await arrange(t);
    // Browsing before signing in on erased-s1, and after signing out on erased-s2; a stranger's session stays.
    await postEvents(t, [
      { type: 'view', productId: '7', sessionId: 'erased-s1', messageId: 'pre-login-1' },
      { type: 'view', productId: '8', sessionId: 'erased-s2' },
      { type: 'view', productId: '7', sessionId: 'stranger-s' },
    ]);
    const counts = async (s: TestService) => ((await (await s.fetch('/api/shop', { key: s.shop.secretKey })).json()) as { counts: { shoppers: number; customers: number; sessions: number } }).counts;
    expect(await counts(t)).toMatchObject({ customers: 2, sessions: 5 });

    const res = await t.fetch(`/api/customers/${ERASED}`, { method: 'DELETE', key: t.shop.secretKey });
    expect(await res.json()).toMatchObject({ success: true, events: 7 });

    const { shopId } = t.shop;
    const sessionsLeft = [...t.service.shopLog.read(shopId)].flatMap((r) => (r.event === undefined ? [] : [r.event.sessionId]));
    expect(sessionsLeft.filter((s) => s.startsWith('erased-'))).toEqual([]);
    expect(sessionsLeft).toEqual(['other-s', 'other-s', 'anon-s', 'stranger-s']);
    expect(viewedOnly(await recommendations(t, 'strategy=recently-viewed&sessionId=erased-s1'))).toEqual([]);
    expect(t.service.dbs.dedup.get([shopId, 'p:pre-login-1'])).toBeUndefined();
    expect(await counts(t)).toMatchObject({ shoppers: 4, customers: 1, sessions: 3 });

    // The erasure entry names them until the housekeeper's round after a snapshot that covers it.
    const spells = (text: string) => [...t.service.dbs.log.getKeys({ start: [shopId, 0], end: [shopId, LAST_POSITION] })].some((key) => t.service.dbs.log.getBinary(key)!.includes(Buffer.from(text)));
    await t.service.pruneLog();
    for (const name of [ERASED, 'erased-s1', 'erased-s2']) expect(spells(name), name).toBe(false);
    expect(spells(KEPT)).toBe(true);

    await t.stop();
    const again = await start(t.dataDir, t.shop);
    expect(await counts(again)).toMatchObject({ shoppers: 4, customers: 1, sessions: 3 });
    expect(viewedOnly(await recommendations(again, 'strategy=recently-viewed&sessionId=erased-s2'))).toEqual([]);
  });

  test('When the server restarts from a snapshot older than an erasure, then the replay erases the customer again and the old snapshot is replaced', async () => {
    const t = await start();
    await arrange(t);
    const { dbs } = t.service;
    // A round already under way (or a shop held by a catch-up) may leave the customer out: snapshot until one holds them.
    await expect.poll(async () => (await t.service.snapshot(), snapshotsSpell(dbs, ERASED))).toBe(true);
    const old = { header: dbs.snapshots.getBinary(t.shop.shopId)!, parts: [...dbs.snapshotParts.getRange()].map(({ key }) => ({ key, bytes: dbs.snapshotParts.getBinary(key)! })) };
    expect((await t.fetch(`/api/customers/${ERASED}`, { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
    await t.stop();
    // As if the process had ended before it snapshotted the erasure: the snapshot on disk is the one before it.
    const raw = openDatabases(dbs.path);
    raw.root.transactionSync(() => {
      for (const key of raw.snapshotParts.getKeys()) raw.snapshotParts.remove(key);
      raw.snapshots.put(t.shop.shopId, asBinary(old.header) as never);
      for (const { key, bytes } of old.parts) raw.snapshotParts.put(key, bytes);
    });
    expect(snapshotsSpell(raw, ERASED)).toBe(true);
    await raw.root.close();

    const again = await start(t.dataDir, t.shop);
    expect(again.service.replayed).toMatchObject({ snapshots: 1, erasures: 1 });
    expect((await answersFor(again, ERASED)).recent).toEqual([]);
    expect((await exportOf(again, ERASED)).models.recentlyViewed).toEqual([]);
    await expect.poll(() => snapshotsSpell(again.service.dbs, ERASED)).toBe(false);
  });

  test('When a customer with a live subscription is erased, then the subscription is pushed a list without their views', async () => {
    const t = await start();
    await arrange(t);
    const client = await StreamClient.open(t.url, undefined, { headers: { authorization: `Bearer ${t.shop.secretKey}` } });
    try {
      const first = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'recently-viewed', customerId: ERASED } });
      expect(viewedOnly(first as RecommendationBody)).toEqual(['5', '1']);
      expect((await t.fetch(`/api/customers/${ERASED}`, { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
      const push = await client.next((m) => m.op === 'recommendations' && m.sub === first.sub && m.ref === undefined, 3_000);
      expect(viewedOnly(push as RecommendationBody)).toEqual([]);
    } finally {
      client.close();
    }
  });

  test('When a customer erased earlier comes back, then only what they do from then on is stored and answered', async () => {
    const t = await start();
    await arrange(t);
    expect((await t.fetch(`/api/customers/${ERASED}`, { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
    await postEvents(t, [{ type: 'view', productId: '7', sessionId: 'erased-s3', customerId: ERASED }], t.shop.secretKey);
    expect((await answersFor(t, ERASED)).recent).toEqual(['7']);
    const exported = await exportOf(t, ERASED);
    expect(exported.events.map((e) => e.productId)).toEqual(['7']);
    await t.service.snapshot();
    await t.stop();
    const again = await start(t.dataDir, t.shop);
    expect((await answersFor(again, ERASED)).recent).toEqual(['7']);
  });
});
