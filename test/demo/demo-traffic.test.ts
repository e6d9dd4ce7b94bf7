// The demo store's generated recommendation traffic: deterministic, inside its weeks, every recId
// one attribution parses, and the experiment's placement assigned as the server assigns shoppers.
import { describe, expect, test } from 'vitest';
import { assignVariant } from '../../src/analytics/assignment.js';
import { parseRecId } from '../../src/engine/attribution/rec-id.js';
import { DEMO_EXPERIMENT, demoTraffic, EXPERIMENT_DAYS, TRAFFIC_DAYS } from '../../src/demo/demo-traffic.js';

const NOW = Date.parse('2025-06-30T12:00:00Z');
const DAY = 86_400_000;
const PRODUCTS = Array.from({ length: 50 }, (_, i) => ({ id: String(1001 + i), price: 2 + (i % 9) }));
const EXPERIMENT = { number: 3, shares: [50, 50] };

describe('demo traffic', () => {
  const events = demoTraffic(PRODUCTS, NOW, EXPERIMENT);

  test('When generated twice, then it is the same stream, within the last TRAFFIC_DAYS days', () => {
    expect(demoTraffic(PRODUCTS, NOW, EXPERIMENT)).toEqual(events);
    expect(events.length).toBeGreaterThan(5000);
    for (const event of events) {
      expect(event.timestamp).toBeLessThan(NOW);
      expect(event.timestamp).toBeGreaterThanOrEqual(NOW - TRAFFIC_DAYS * DAY);
    }
    const types = new Set(events.map((e) => e.type));
    expect([...types].sort()).toEqual(['add_to_cart', 'click', 'impression', 'purchase']);
  });

  test('When an event carries a recId, then it parses; on the experiment’s placement in its last weeks, with the shopper’s assigned variant', () => {
    let inExperiment = 0;
    for (const event of events) {
      if (event.recId === undefined) continue;
      const rec = parseRecId(event.recId);
      expect(rec, event.recId).toBeDefined();
      const running = event.widgetId === DEMO_EXPERIMENT.widgetId && event.timestamp >= NOW - EXPERIMENT_DAYS * DAY;
      if (!running) {
        expect(rec!.experiment).toBe(0);
        continue;
      }
      inExperiment++;
      expect(rec!.experiment).toBe(EXPERIMENT.number);
      expect(rec!.variant).toBe(assignVariant(EXPERIMENT.number, event.sessionId, EXPERIMENT.shares));
    }
    expect(inExperiment).toBeGreaterThan(500);
  });

  test('When a purchase is generated, then the same session clicked that product from a recommendation just before', () => {
    const clicked = new Set(events.filter((e) => e.type === 'click').map((e) => `${e.sessionId}|${e.productId}`));
    const purchases = events.filter((e) => e.type === 'purchase');
    expect(purchases.length).toBeGreaterThan(20);
    for (const purchase of purchases) {
      expect(clicked.has(`${purchase.sessionId}|${purchase.productId}`)).toBe(true);
      expect(purchase.recId).toBeUndefined();
      expect(purchase.metadata!.price).toBeGreaterThan(0);
    }
  });
});
