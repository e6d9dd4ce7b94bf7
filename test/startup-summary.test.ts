// The start-up summary: one line that says what the start found and did, never two that disagree.
import { describe, expect, test } from 'vitest';
import { startupSummary } from '../src/startup-summary.js';

const none = { shops: 0, products: 0, events: 0, snapshots: 0, erasures: 0, ms: 0 };

describe('startupSummary', () => {
  test('When the first start seeds the demo store, then the line says the data dir is new and what was seeded, and nothing about replaying', () => {
    const line = startupSummary('data/db', none, { products: 400, events: 86891, ms: 4200 });
    expect(line).toBe('data: data/db (new): seeded the demo store with 400 products and 86,891 events in 4.2 s');
    expect(line).not.toMatch(/replayed/);
  });

  test('When the data dir is new and the demo is off, then it says so', () => {
    expect(startupSummary('data/db', none)).toBe('data: data/db (new and empty)');
  });

  test('When a restart restores the shop from its snapshot, then it says how many events came after it', () => {
    expect(startupSummary('data/db', { shops: 1, products: 400, events: 12, snapshots: 1, erasures: 0, ms: 65 })).toBe(
      'data: data/db: 1 shop restored from its snapshot, then 12 events after it replayed, 400 products loaded in 65 ms',
    );
  });

  test('When shops have no snapshot, or only some do, then it says which were rebuilt from the log', () => {
    expect(startupSummary('d', { shops: 2, products: 10, events: 1500, snapshots: 0, erasures: 0, ms: 1234 })).toBe(
      'data: d: 2 shops rebuilt from the event log (1,500 events replayed), 10 products loaded in 1.2 s',
    );
    expect(startupSummary('d', { shops: 3, products: 10, events: 1, snapshots: 2, erasures: 0, ms: 5 })).toBe(
      'data: d: 3 shops: 2 restored from snapshots, 1 rebuilt from the event log; 1 event replayed, 10 products loaded in 5 ms',
    );
  });

  test('When the demo store is seeded beside shops already there, then the one line says both', () => {
    expect(startupSummary('d', { shops: 1, products: 3, events: 0, snapshots: 1, erasures: 0, ms: 2 }, { products: 400, events: 5, ms: 80 })).toBe(
      'data: d: 1 shop restored from its snapshot, then 0 events after it replayed, 3 products loaded in 2 ms; seeded the demo store with 400 products and 5 events in 80 ms',
    );
  });
});
