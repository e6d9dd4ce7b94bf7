// Reference for engine/pending-events.ts, in the plainest form: a Map of product id → its events
// (oldest first), re-inserted when named, so its first key is the least recently named id.
import type { EngineEvent } from '../../src/engine/event.js';

export class ReferencePendingEvents {
  readonly byId = new Map<string, EngineEvent[]>();

  constructor(
    readonly maxEvents: number,
    readonly perId: number,
  ) {}

  get size(): number {
    let size = 0;
    for (const events of this.byId.values()) size += events.length;
    return size;
  }

  add(event: EngineEvent): void {
    if (this.maxEvents === 0) return;
    const events = this.byId.get(event.productId) ?? [];
    this.byId.delete(event.productId);
    this.byId.set(event.productId, events);
    events.push(event);
    if (events.length > this.perId) events.shift();
    while (this.size > this.maxEvents) {
      const [oldest, held] = this.byId.entries().next().value!;
      if (oldest === event.productId) held.shift();
      else this.byId.delete(oldest);
    }
  }

  take(id: string): EngineEvent[] {
    const events = this.byId.get(id) ?? [];
    this.byId.delete(id);
    return events;
  }
}
