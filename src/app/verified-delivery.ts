// A platform's webhook delivery admitted: the shop its source header names, and its signature (the
// base64 HMAC-SHA256 of the exact bytes) checked with that shop's secrets before anything reads the
// body. Anything else is a 401 that stores nothing.
import { AppError } from '../errors.js';
import { verifyHmacSignature } from '../integrations/hmac-signature.js';
import { acceptedSecrets, type WebhookConnection } from '../store/webhook-connection.js';
import type { PlatformConnections } from './platform-connections.js';

export function verifiedDelivery(
  connections: PlatformConnections,
  source: string | undefined,
  body: Uint8Array,
  signature: string | undefined,
  now: number,
  headers: { source: string; signature: string },
): { shopId: string; connection: WebhookConnection } {
  const found = connections.find(source);
  if (found === undefined) throw new AppError('unauthorized', `no shop is connected to this ${headers.source}`);
  if (!verifyHmacSignature(body, signature, acceptedSecrets(found.connection, now))) {
    throw new AppError('unauthorized', `${headers.signature} is missing or does not sign this body with the shop's webhook secret`);
  }
  return found;
}
