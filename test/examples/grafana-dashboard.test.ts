// The Grafana dashboard of docs/examples/grafana-dashboard.json asks only for what a running server
// exports: every metric its queries name is a family (or a histogram's series) of the real
// server's /metrics, and every label its selectors match on is one that family's samples carry.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMetrics, type Scrape } from '../support/metrics-text.js';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';

interface Panel {
  id: number;
  type: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync('docs/examples/grafana-dashboard.json', 'utf8')) as { panels: Panel[]; templating: { list: { query: unknown }[] } };
const exprs = [
  ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
  ...dashboard.templating.list.map(({ query }) => (typeof query === 'object' && query !== null ? (query as { query: string }).query : '')).filter((query) => query.includes('(')),
];
const METRIC = /\b(?:pairwise|process|nodejs)_[a-z0-9_]+/g;
const SELECTOR = /\b((?:pairwise|process|nodejs)_[a-z0-9_]+)\{([^}]*)\}/g;

describe('docs/examples/grafana-dashboard.json', () => {
  let t: TestService;
  let text: string;
  let scrape: Scrape;
  beforeAll(async () => {
    t = await startTestService();
    // Some traffic, so that every family has samples to show its labels.
    await putProducts(t, [wireProduct('1')]);
    await postEvents(t, [{ type: 'view', productId: '1', sessionId: 's' }]);
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    await client.request({ op: 'subscribe', ref: 'r', query: { strategy: 'trending' } });
    text = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
    scrape = parseMetrics(text);
    client.close();
  });
  afterAll(() => t.cleanup());

  test('When the dashboard is read, then each panel has an id of its own and every query names a metric', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const expr of exprs) expect(expr.match(METRIC), expr).not.toBeNull();
  });

  test('When its queries are held against a running server, then every metric they name is exported, with the labels they select on', () => {
    const families = new Map<string, string>([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    const series = new Set([...families].flatMap(([name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name])));
    const named = [...new Set(exprs.flatMap((expr) => expr.match(METRIC) ?? []))];
    expect(named.filter((name) => !series.has(name))).toEqual([]);

    const labelsOf = (name: string) => new Set([...scrape].filter(([key]) => key.startsWith(`${name}{`)).flatMap(([key]) => [...key.matchAll(/([a-z_]+)="/g)].map((m) => m[1]!)));
    const missing = exprs.flatMap((expr) =>
      [...expr.matchAll(SELECTOR)].flatMap(([, name, selector]) => [...selector!.matchAll(/([a-z_]+)\s*[=!~]/g)].map((m) => m[1]!).filter((label) => !labelsOf(name!).has(label)).map((label) => `${name}{${label}}`)),
    );
    expect(missing).toEqual([]);
  });
});
