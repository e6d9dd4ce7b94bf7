// A committer for tests (ServiceOptions.committer): the real LMDB commit, whose disk flush a test
// can hold and whose commits it can refuse, to see what is answered before the disk has a write.
import { lmdbCommitter, type Commit, type Committer } from '../../src/store/durable-commit.js';

/** How lmdb-js rejects a commit that failed: a generic error, the cause on `commitError` (here ENOSPC). */
function refusedCommit(): Commit {
  const cause = Object.assign(new Error('No space left on device (injected)'), { code: 28 });
  const error = Object.assign(new Error('Commit failed (see commitError for details)'), { commitError: Promise.reject(cause) });
  return { committed: Promise.reject(error), flushed: new Promise(() => {}) };
}

export class CommitControl {
  #gate: Promise<void> | undefined;
  #refuse: (() => boolean) | undefined;
  #waiters: { count: number; resolve: () => void }[] = [];
  /** Commits LMDB has committed so far (on disk or not). */
  committed = 0;
  /** Commits refused so far. */
  refused = 0;

  readonly committer: Committer = (root, write) => {
    if (this.#refuse?.()) {
      this.refused++;
      return refusedCommit();
    }
    const real = lmdbCommitter(root, write);
    real.committed.then(
      () => this.#counted(),
      () => {},
    );
    const gate = this.#gate;
    return gate === undefined ? real : { committed: real.committed, flushed: gate.then(() => real.flushed) };
  };

  /** Holds the flush of every commit started from now on until the returned function is called. */
  holdFlushes(): () => void {
    let release!: () => void;
    this.#gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.#gate = undefined;
      release();
    };
  }

  /** Refuses the commits for which `refuse` answers true (none again once called without it); nothing of them is stored. */
  refuseCommits(refuse?: () => boolean): void {
    this.#refuse = refuse;
  }

  /** Resolves once `count` commits in all have been committed. */
  untilCommitted(count: number): Promise<void> {
    if (this.committed >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  #counted(): void {
    this.committed++;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.committed < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }
}

/** Whether `promise` settles within `ms`: false means it is still pending after that long. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
