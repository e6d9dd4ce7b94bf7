// A shop's connection to a platform's store (Shopify, WooCommerce), kept in its record (so in its
// log, like keys): where its webhooks come from (a Shopify domain, a WooCommerce store URL), the
// secret they are signed with (and, for a grace period after a rotation, the one before it), whether
// the app is still installed, and the customers' data requests the platform sent. Each change is an
// action turned into the new connection inside the write transaction, with times carried by the
// action: every process gets the same record.

/** The platforms a shop connects to by their webhooks. */
export type Platform = 'shopify' | 'woocommerce';

export interface DataRequest {
  customerId: string;
  /** Shopify's data_request.id. */
  requestId: string;
  requestedAt: number;
}

export interface WebhookConnection {
  /** Where deliveries say they come from: a Shopify <shop>.myshopify.com domain, a WooCommerce store URL. */
  source: string;
  /** The webhook signing secret; never answered back. */
  secret: string;
  /** The secret before the last rotation, valid until previousUntil (epoch ms). */
  previousSecret?: string;
  previousUntil?: number;
  connectedAt: number;
  /** When the platform said the app was uninstalled (Shopify's app/uninstalled): only compliance topics are taken since. */
  uninstalledAt?: number;
  /** Customers' data requests (Shopify's customers/data_request), newest first, at most MAX_DATA_REQUESTS. */
  dataRequests?: DataRequest[];
}

export const MAX_DATA_REQUESTS = 100;

export type ConnectionAction =
  /** Connects, reconnects after an uninstall, or rotates the secret (the previous one valid for `graceMs`). */
  | { action: 'connect'; source: string; secret: string; at: number; graceMs: number }
  | { action: 'uninstalled'; at: number }
  | { action: 'disconnect' }
  | { action: 'data-request'; request: DataRequest };

/** The connection after `action` (undefined: none), or `current` itself when the action changes nothing. */
export function nextConnection(current: WebhookConnection | undefined, action: ConnectionAction): WebhookConnection | undefined {
  switch (action.action) {
    case 'connect': {
      if (current === undefined || current.source !== action.source) return { source: action.source, secret: action.secret, connectedAt: action.at };
      const { uninstalledAt: _, previousSecret: _secret, previousUntil: _until, ...kept } = current;
      if (current.secret === action.secret) return current.uninstalledAt === undefined ? current : { ...kept, ...previousOf(current, action.at) };
      return { ...kept, secret: action.secret, previousSecret: current.secret, previousUntil: action.at + action.graceMs };
    }
    case 'uninstalled':
      return current === undefined || current.uninstalledAt !== undefined ? current : { ...current, uninstalledAt: action.at };
    case 'disconnect':
      return undefined;
    case 'data-request': {
      if (current === undefined) return current;
      const others = (current.dataRequests ?? []).filter((r) => r.requestId !== action.request.requestId);
      return { ...current, dataRequests: [action.request, ...others].slice(0, MAX_DATA_REQUESTS) };
    }
  }
}

/** The previous secret and its deadline, while it lasts at `at`. */
function previousOf(connection: WebhookConnection, at: number): Pick<WebhookConnection, 'previousSecret' | 'previousUntil'> {
  return connection.previousSecret !== undefined && (connection.previousUntil ?? 0) > at ? { previousSecret: connection.previousSecret, previousUntil: connection.previousUntil! } : {};
}

/** The secrets a delivery at `at` may be signed with: the current one, and the previous one during its grace period. */
export function acceptedSecrets(connection: WebhookConnection, at: number): string[] {
  const previous = previousOf(connection, at).previousSecret;
  return previous === undefined ? [connection.secret] : [connection.secret, previous];
}
