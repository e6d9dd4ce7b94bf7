// The event as the engine consumes it: already validated and normalized by the ingest pipeline.

export type EventType = 'impression' | 'click' | 'add_to_cart' | 'purchase' | 'dismiss' | 'save' | 'view';

export interface EngineEvent {
  readonly type: EventType;
  /** Bare product id. */
  readonly productId: string;
  readonly sessionId: string;
  readonly customerId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Event time, epoch ms: the engine never reads a clock. */
  readonly timestamp: number;
}
