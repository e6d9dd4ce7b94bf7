// Where a platform's sync writes (the data dir, or a running server's API: the CLI's import sinks) and
// where it keeps its place between pages, so that an interrupted sync goes on from there.

/** What a sink did with a chunk of records (products or events). */
export interface ChunkOutcome {
  accepted: number;
  duplicates: number;
  refused: { index: number; reason: string }[];
}

export interface SyncSink {
  readonly eventsPerChunk: number;
  products(records: unknown[]): Promise<ChunkOutcome>;
  events(records: unknown[]): Promise<ChunkOutcome>;
}

/** A sync's saved place: loaded at its start, saved after every page written. */
export interface SyncStateStore<S> {
  load(): S | undefined;
  save(state: S): void;
}
