// How every store commits (DESIGN.md §6): one transaction, then the disk sync of that very commit,
// and only then an answer. The committer is the seam between the stores and LMDB's commit.
import type { RootDatabase } from 'lmdb';
import type { Databases } from './database.js';

/** A commit under way: `committed` settles once LMDB has committed (or refused) it, `flushed` once it is on disk. */
export interface Commit {
  committed: Promise<unknown>;
  flushed: PromiseLike<unknown>;
}

/**
 * Starts a commit of `write`. Tests wrap the real one to hold a flush or refuse a commit while the
 * real LMDB stores everything else (test/support/commit-control.ts).
 */
export type Committer = (root: RootDatabase, write: () => void) => Commit;

/** lmdb-js: the writes of one event-loop turn share one transaction and one disk sync (group commit). */
export const lmdbCommitter: Committer = (root, write) => {
  const committed = root.transaction(write);
  // Taken now, not once committed: root.flushed follows the newest batch, so taken later it would
  // also wait for commits queued since — for ever when one of them fails (lmdb-js runs flush
  // waiters only for a write that succeeded). `then` is called here, so it sees this batch.
  const flushed = new Promise((resolve, reject) => root.flushed.then(resolve, reject));
  return { committed, flushed };
};

/** Commits `write` in one transaction and resolves once it is on disk. */
export async function commitDurably(dbs: Databases, write: () => void): Promise<void> {
  const { committed, flushed } = dbs.committer(dbs.root, write);
  await committed;
  await flushed;
}
