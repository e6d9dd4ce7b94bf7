// The event as the engine consumes it: already validated and normalized by the ingest pipeline.

export type EventType = 'impression' | 'click' | 'add_to_cart' | 'purchase' | 'dismiss' | 'save' | 'view';

export interface EngineEvent {
  readonly type: EventType;
  /** Bare product id. */
  readonly productId: string;
  readonly sessionId: string;
  readonly customerId?: string;
  /** The placement that showed the product (attribution keys by it). */
  readonly widgetId?: string;
  /** The recommendation answer (meta.recId) the event came from; any string, parsed by attribution. */
  readonly recId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /**
   * 'secret' when sent with a secret key (the merchant's server, the CLI, the demo seed); absent when
   * sent with a public key (a storefront, so anyone), and on every event stored before senders were
   * recorded: those count as the storefront's.
   */
  readonly sender?: 'secret';
  /** Event time, epoch ms: the engine never reads a clock. */
  readonly timestamp: number;
}

/**
 * Longest metadata.orderId that names an order. Metadata may hold 1 KiB and anyone with the public
 * key can send it: a longer id is ignored (the event counts in its session's cart), so the open
 * baskets' keys (up to maxBaskets of them) stay short.
 */
export const MAX_ORDER_ID_LENGTH = 128;

/** The order the event names (metadata.orderId, a string or number) as a string; undefined when none or too long. */
export function orderIdOf(event: EngineEvent): string | undefined {
  const orderId = event.metadata?.orderId;
  const id = typeof orderId === 'string' ? orderId : typeof orderId === 'number' ? String(orderId) : undefined;
  return id !== undefined && id.length <= MAX_ORDER_ID_LENGTH ? id : undefined;
}
