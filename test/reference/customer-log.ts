// A plain model of a shop's log with customers' events and their erasure: one array of positions,
// each an event or a change. What the LMDB log, the customer and session indexes and the erasure
// (store/customer-erasure.ts) must agree with, whatever the entries were split into.
import type { TrackedEvent } from '../../src/api/event.js';

export type ReferenceRecord = { position: number; event: TrackedEvent } | { position: number; change: string };

export class ReferenceCustomerLog {
  readonly records: ReferenceRecord[] = [];

  append(events: readonly TrackedEvent[]): void {
    for (const event of events) this.records.push({ position: this.records.length + 1, event });
  }

  change(kind: string): void {
    this.records.push({ position: this.records.length + 1, change: kind });
  }

  /**
   * Each of the customer's events, and each event without a customer of a session their events
   * named, becomes an 'event-erased' change at its position, then one 'customer-erased' is appended;
   * returns how many went.
   */
  erase(customerId: string): number {
    const sessions = new Set(this.eventsOf(customerId).map(({ event }) => event.sessionId));
    let erased = 0;
    for (let i = 0; i < this.records.length; i++) {
      const record = this.records[i]!;
      if ('event' in record && (record.event.customerId === customerId || (record.event.customerId === undefined && sessions.has(record.event.sessionId)))) {
        this.records[i] = { position: record.position, change: 'event-erased' };
        erased++;
      }
    }
    this.change('customer-erased');
    return erased;
  }

  /** The customer's events, oldest first, with their positions. */
  eventsOf(customerId: string): { position: number; event: TrackedEvent }[] {
    return this.records.flatMap((r) => ('event' in r && r.event.customerId === customerId ? [r] : []));
  }
}
