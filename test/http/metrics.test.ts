// GET /metrics of one server process: what its routes answered (by route, method and status, with
// latencies), what became of the events sent to it over HTTP and the WebSocket, and its WebSocket
// channel's connections, subscriptions and frames.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMetrics, type Scrape } from '../support/metrics-text.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';

describe('/metrics', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, [wireProduct('1'), wireProduct('2')]);
  });
  afterAll(() => t.cleanup());

  async function scrape(): Promise<Scrape> {
    const res = await t.fetch('/metrics', { key: t.shop.secretKey });
    expect(res.status).toBe(200);
    return parseMetrics(await res.text());
  }
  const value = (s: Scrape, series: string) => s.get(series)?.value ?? 0;
  /** How much each series grew between two scrapes. */
  const grew = (before: Scrape, after: Scrape, series: string) => value(after, series) - value(before, series);

  test('When routes answer, then requests are counted by route (as the table writes it), method and status, and timed', async () => {
    const before = await scrape();
    await t.fetch('/api/recommendations?strategy=trending');
    await t.fetch('/api/recommendations?strategy=trending', { method: 'HEAD' });
    await t.fetch('/api/products/1', { key: t.shop.secretKey });
    await t.fetch('/api/products/nope', { key: t.shop.secretKey });
    await t.fetch('/api/recommendations?strategy=nope');
    await t.fetch('/api/recommendations', { key: null });
    await t.fetch('/no/such/path');
    await t.fetch('/healthz', { method: 'PATCH', key: null });
    await t.fetch('/healthz', { method: 'BREW', key: null }).catch(() => undefined);
    const after = await scrape();

    const requests = (route: string, method: string, status: number) => grew(before, after, `pairwise_http_requests_total{route="${route}",method="${method}",status="${status}"}`);
    expect(requests('/api/recommendations', 'GET', 200)).toBe(1);
    expect(requests('/api/recommendations', 'HEAD', 200)).toBe(1);
    expect(requests('/api/recommendations', 'GET', 400)).toBe(1);
    expect(requests('/api/recommendations', 'GET', 401)).toBe(1);
    expect(requests('/api/products/{id}', 'GET', 200)).toBe(1);
    expect(requests('/api/products/{id}', 'GET', 404)).toBe(1);
    expect(requests('unmatched', 'GET', 404)).toBe(1);
    expect(requests('/healthz', 'PATCH', 405)).toBe(1);
    // A method no route knows is counted as 'other', never by the name a client made up.
    expect([...after.keys()].filter((series) => series.includes('BREW'))).toEqual([]);
    const latency = (suffix: string) => grew(before, after, `pairwise_http_request_duration_seconds_${suffix}{route="/api/recommendations",method="GET"}`);
    expect(latency('count')).toBe(3);
    expect(grew(before, after, 'pairwise_http_request_duration_seconds_bucket{route="/api/recommendations",method="GET",le="+Inf"}')).toBe(3);
    expect(latency('sum')).toBeGreaterThan(0);
    expect(after.get('pairwise_http_request_duration_seconds_bucket{route="/api/recommendations",method="GET",le="0.0005"}')?.type).toBe('histogram');
  });

  test('When events come over HTTP and the WebSocket, then /metrics counts those stored, repeated and refused by reason', async () => {
    const before = await scrape();
    const post = (body: unknown) => t.fetch('/api/events', { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ type: 'view', productId: '1', sessionId: 'm1', messageId: 'once' })).status).toBe(200);
    expect((await post({ type: 'view', productId: '1', sessionId: 'm1', messageId: 'once' })).status).toBe(200);
    expect((await post({ type: 'teleport', productId: '1', sessionId: 'm1' })).status).toBe(400);
    expect((await post({ type: 'view', productId: '1', sessionId: 'm1', customerId: 'c1', customerToken: 'forged' })).status).toBe(401);
    const batch = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events: [{ type: 'view', productId: '2', sessionId: 'm2' }, { type: 'view' }] }) });
    expect(batch.status).toBe(200);
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    expect((await client.request({ op: 'event', ref: 'a', event: { type: 'view', productId: '2', sessionId: 'm3' } })).op).toBe('ack');
    expect((await client.request({ op: 'event', ref: 'b', event: { type: 'view' } })).op).toBe('error');
    client.close();
    const after = await scrape();

    expect(grew(before, after, 'pairwise_events_accepted_total{result="stored"}')).toBe(3);
    expect(grew(before, after, 'pairwise_events_accepted_total{result="duplicate"}')).toBe(1);
    expect(grew(before, after, 'pairwise_events_refused_total{reason="invalid_event"}')).toBe(3);
    expect(grew(before, after, 'pairwise_events_refused_total{reason="invalid_customer_token"}')).toBe(1);
  });

  test('When WebSocket clients connect, subscribe and send, then /metrics counts connections, subscriptions and frames', async () => {
    const before = await scrape();
    const [x, y] = await Promise.all([StreamClient.open(t.url, t.shop.publicKey), StreamClient.open(t.url, t.shop.publicKey, { binary: true })]);
    expect((await x.request({ op: 'subscribe', ref: 's1', query: { strategy: 'trending', limit: 2 } })).op).toBe('recommendations');
    expect((await x.request({ op: 'subscribe', ref: 's2', query: { strategy: 'trending', limit: 3 } })).op).toBe('recommendations');
    expect((await y.request({ op: 'subscribe', ref: 's3', query: { strategy: 'trending', limit: 2 } })).op).toBe('recommendations');
    const open = await scrape();
    x.close();
    y.close();
    await Promise.all([x.closed, y.closed]);
    await expect.poll(() => t.service.stream.stats().connections).toBe(0);
    const after = await scrape();

    expect(value(open, 'pairwise_ws_connections{server="1"}')).toBe(2);
    expect(value(open, 'pairwise_ws_subscriptions{server="1"}')).toBe(3);
    expect(value(after, 'pairwise_ws_connections{server="1"}')).toBe(0);
    expect(grew(before, after, 'pairwise_ws_connections_opened_total')).toBe(2);
    expect(grew(before, after, 'pairwise_ws_frames_total{direction="received"}')).toBe(3);
    expect(grew(before, after, 'pairwise_ws_frames_total{direction="sent"}')).toBe(3);
    expect(grew(before, after, 'pairwise_http_requests_total{route="/api/stream",method="GET",status="101"}')).toBe(2);
  });
});
