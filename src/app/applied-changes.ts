// What the transports hear of the log as this process applies it (whichever process wrote it): a
// shop's answers may have changed (live lists to recompute), or its keys (open sockets to check).
// The log's listeners (ingest/log-listeners.ts) are what the service hands over as this.

export interface AppliedChanges {
  /** After events, or a change that may alter the shop's answers, were applied. */
  onAnswersChanged(listener: (shopId: string) => void): void;
  /** After the shop's keys or record changed; `revoked`: a key may be gone or an origin no longer allowed. */
  onKeysChanged(listener: (shopId: string, revoked: boolean) => void): void;
}
