// What a supervisor and its server processes say to each other over the IPC channel.

/** Server → supervisor: started and listening (the first one's banner is printed), with its resident memory. */
export interface ReadyMessage {
  type: 'ready';
  rssBytes: number;
  banner: string;
}

/** Either way: a process committed to a shop's log, which now ends at `head` (0: the shop was erased); the supervisor passes it to the other servers. */
export interface CommittedMessage {
  type: 'committed';
  shopId: string;
  head: number;
}

export type ServerMessage = ReadyMessage | CommittedMessage;

export function isServerMessage(value: unknown): value is ServerMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'ready' || type === 'committed';
}
