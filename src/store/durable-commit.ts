// How every store commits: one transaction, then the disk sync of that very commit, and only then
// an answer, so that an acknowledged write survives kill -9 and a restart. The committer is the
// seam between the stores and LMDB's commit.
import type { RootDatabase } from 'lmdb';

/** What a commit needs of the databases: the environment and how this thread commits to it. */
export interface CommitTarget {
  root: RootDatabase;
  committer: Committer;
}

/** A commit under way: `committed` settles once LMDB has committed (or refused) it, `flushed` once it is on disk. */
export interface Commit<T = unknown> {
  /** Resolves with what the transaction's `write` returned. */
  committed: Promise<T>;
  flushed: PromiseLike<unknown>;
}

/**
 * Starts a commit of `write`. Tests wrap the real one to hold a flush or refuse a commit while the
 * real LMDB stores everything else (test/support/commit-control.ts).
 */
export type Committer = <T>(root: RootDatabase, write: () => T) => Commit<T>;

/**
 * What a replicated log's materialization adds to an append's write transaction: `check` first,
 * before anything is written (it throws to write nothing: lmdb-js keeps what a transaction wrote
 * before it threw), and `record` last, with what the append stored (its sequence and outcome).
 */
export interface Alongside<R> {
  check(): void;
  record(result: R): void;
}

/** lmdb-js: the writes of one event-loop turn share one transaction and one disk sync (group commit). */
export const lmdbCommitter: Committer = (root, write) => {
  const committed = root.transaction(write);
  // Taken now, not once committed: root.flushed follows the newest batch, so taken later it would
  // also wait for commits queued since — for ever when one of them fails (lmdb-js runs flush
  // waiters only for a write that succeeded). `then` is called here, so it sees this batch.
  const flushed = new Promise((resolve, reject) => root.flushed.then(resolve, reject));
  flushed.catch(() => {}); // waited for only once committed; without overlappingSync it fails with the commit
  return { committed, flushed };
};

/**
 * Commits `write` in one transaction; resolves with what it returned once it is on disk, rejects
 * with the cause when LMDB refused it. Reads inside `write` see the transaction's own writes and
 * everything committed before it by any process: LMDB has one writer at a time per environment.
 */
export async function commitDurably<T>(dbs: CommitTarget, write: () => T): Promise<T> {
  const { committed, flushed } = dbs.committer(dbs.root, write);
  let result: T;
  try {
    result = await committed;
  } catch (error) {
    throw await commitFailure(error);
  }
  await flushed;
  return result;
}

/**
 * lmdb-js rejects every write of a failed commit with "Commit failed (see commitError for
 * details)" and puts the cause (an errno: EIO when the disk fills in the middle of a page write)
 * on a second promise, `commitError`, that nobody else handles (lmdb-js#368). The write thread's
 * report of the failure rejects it (write.js, startWriting), in the same callback that fails the
 * writes or soon after it, so this waits for nothing that may not come.
 */
async function commitFailure(error: unknown): Promise<Error> {
  const cause = (error as { commitError?: Promise<unknown> } | undefined)?.commitError;
  const reason: unknown = cause === undefined ? error : await cause.then(() => error, (rejected: unknown) => rejected);
  const code = (reason as { code?: unknown } | undefined)?.code;
  const message = reason instanceof Error ? reason.message : String(reason);
  return new Error(`the commit failed: ${message}${typeof code === 'number' ? ` (errno ${code})` : ''}`, { cause: reason });
}

/**
 * lmdb-js 3.5 also rejects, on a failed commit, a promise that no writer holds: the commit promise
 * it makes for each event-turn batch (write.js, right after the 'beforecommit' listeners, in the
 * same task), and through it `commitError`. Unhandled, either ends the process; every writer here
 * learns of the failure from its own transaction. So each batch's promise gets a handler as soon
 * as it is made.
 */
export function handleUnclaimedCommitFailures(root: RootDatabase): void {
  root.on('beforecommit', () => queueMicrotask(() => root.committed.then(undefined, claimCommitError)));
}

function claimCommitError(error: unknown): void {
  (error as { commitError?: Promise<unknown> } | undefined)?.commitError?.catch(() => {});
}

/**
 * Closes the environment once its commits are done. lmdb-js's close waits for the flush of the
 * last commit, which never comes when that commit failed (a full disk): an empty commit, which
 * needs no space, becomes the last one first. Callers bound the wait (see service.ts).
 */
export async function closeDatabases(dbs: { root: RootDatabase }): Promise<void> {
  await dbs.root.transaction(() => {}).catch(() => {});
  await dbs.root.close();
}
