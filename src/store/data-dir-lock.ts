// One server per data dir: a lock file in the LMDB directory naming its holder (pid, and the
// process's start time and boot, so that another process given the same pid later, after a
// reboot or in a restarted container, is not taken for the holder). Node has no flock, so the lock
// is checked and taken inside an LMDB write transaction: LMDB's writer mutex is shared by every
// process that opens the environment and released by the OS when its holder dies, so two starters
// cannot both find a stale lock and both take it. A holder killed with -9 leaves its file behind;
// the next start finds that process gone and takes the lock at once (no stale timeout). A
// graceful stop marks it free. The file keeps one fixed size and is only ever overwritten in
// place, so taking and releasing it need no new disk block: a restart onto a full disk still
// starts (and serves reads). The CLI does not take it: see readLockHolder. Pids are those of this
// machine's pid namespace: containers sharing a data dir must share that too.
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { RootDatabase } from 'lmdb';
import { StartupError } from '../errors.js';

export const LOCK_FILE = 'server.lock';
/** The lock file's size, whoever holds it (or nobody): its content is padded to it. */
const LOCK_BYTES = 512;

export interface LockHolder {
  pid: number;
  /** The process's start (boot id and clock ticks since boot, from /proc); '' where there is no /proc. */
  process: string;
  /** When it took the lock (ISO 8601). */
  since: string;
}

export interface DataDirLock {
  readonly file: string;
  /** Marks the lock free if it is still this process's. */
  release(): void;
}

/**
 * Takes the server lock of the LMDB environment in `dbPath` (`root` opened on it), or throws a
 * StartupError naming `dataDir` and the running holder's pid.
 */
export function lockDataDir(root: RootDatabase, dbPath: string, dataDir = dbPath, now = new Date()): DataDirLock {
  const file = path.join(dbPath, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, process: processStart(process.pid) ?? '', since: now.toISOString() };
  root.transactionSync(() => {
    const holder = readHolder(file);
    if (holder !== undefined && isRunning(holder)) {
      const who = holder.pid === process.pid && holder.process === mine.process ? `pid ${holder.pid}: this very process` : `pid ${holder.pid}`;
      throw new StartupError(
        `data dir ${dataDir} is in use by another Pairwise server (${who}, since ${holder.since}): stop it first, or start this one with another PAIRWISE_DATA_DIR (lock file ${file})`,
      );
    }
    overwrite(file, mine);
  });
  return {
    file,
    release() {
      const holder = readHolder(file);
      if (holder?.pid === mine.pid && holder.process === mine.process) overwrite(file, { free: true });
    },
  };
}

/** Writes `content` over the file's first LOCK_BYTES in one write, padded: the file never grows past them. */
function overwrite(file: string, content: object): void {
  const text = JSON.stringify(content);
  if (text.length >= LOCK_BYTES) throw new Error('lock content too long');
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
  try {
    writeSync(fd, Buffer.from(text.padEnd(LOCK_BYTES - 1) + '\n'), 0, LOCK_BYTES, 0);
  } finally {
    closeSync(fd);
  }
}

/** The server holding the data dir's lock while it runs; undefined when none does (or it died). */
export function readLockHolder(dbPath: string): LockHolder | undefined {
  const holder = readHolder(path.join(dbPath, LOCK_FILE));
  return holder !== undefined && isRunning(holder) ? holder : undefined;
}

function readHolder(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // no lock file
  }
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isInteger(holder.pid) && typeof holder.process === 'string') return { pid: holder.pid!, process: holder.process, since: String(holder.since) };
  } catch {
    // not ours, or written by hand: no valid claim
  }
  return undefined;
}

/** Whether the process that wrote the lock still runs. */
function isRunning(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0); // signal 0: only checks that the pid exists
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false; // EPERM: it exists, as another user
  }
  if (holder.process === '') return true; // written without /proc: the pid is all there is to go by
  const current = processStart(holder.pid);
  // Unreadable (hidden by /proc's hidepid, or gone this instant): count it as running, so that a
  // doubt refuses a start with a message rather than lets two servers write.
  return current === undefined || current === holder.process;
}

let bootId: string | undefined;

/** "<boot id>/<start time in clock ticks since boot>" of a process (Linux); undefined where /proc cannot tell. */
function processStart(pid: number): string | undefined {
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); fields are counted after the command name, which may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start === undefined ? undefined : `${bootId}/${start}`;
  } catch {
    return undefined;
  }
}
