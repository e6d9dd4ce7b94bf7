import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { StartupError } from '../../src/errors.js';
import { LOCK_FILE, lockDataDir, readLockHolder } from '../../src/store/data-dir-lock.js';
import { openDatabases, type Databases } from '../../src/store/database.js';
import { tempDataDir } from '../support/service.js';

const opened: { dir: string; dbs: Databases }[] = [];

function open(): { dir: string; dbPath: string; dbs: Databases } {
  const dir = tempDataDir();
  const dbPath = path.join(dir, 'db');
  mkdirSync(dbPath, { recursive: true });
  const dbs = openDatabases(dbPath);
  opened.push({ dir, dbs });
  return { dir, dbPath, dbs };
}

afterEach(async () => {
  for (const { dir, dbs } of opened.splice(0)) {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The pid of a process that has exited (as one killed with -9 leaves in its lock file). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

function lockFile(dbPath: string): { pid: number; process: string; since: string } {
  return JSON.parse(readFileSync(path.join(dbPath, LOCK_FILE), 'utf8'));
}

describe('data dir lock', () => {
  test('When the lock is free, then it is taken in a file naming this process, and release marks it free', () => {
    const { dbPath, dbs } = open();
    const lock = lockDataDir(dbs.root, dbPath);
    expect(lockFile(dbPath)).toMatchObject({ pid: process.pid });
    expect(readLockHolder(dbPath)).toMatchObject({ pid: process.pid });

    lock.release();

    expect(readLockHolder(dbPath)).toBeUndefined();
    const again = lockDataDir(dbs.root, dbPath); // free again
    expect(readLockHolder(dbPath)).toMatchObject({ pid: process.pid });
    again.release();
    // Overwritten in place at one size, never removed or grown: a full disk cannot refuse a start.
    expect(statSync(lock.file).size).toBe(512);
  });

  test('When a running server holds the lock, then taking it fails with a message naming the data dir and its pid', () => {
    const { dir, dbPath, dbs } = open();
    lockDataDir(dbs.root, dbPath, dir);

    const again = () => lockDataDir(dbs.root, dbPath, dir);

    expect(again).toThrow(StartupError);
    expect(again).toThrow(`data dir ${dir} is in use by another Pairwise server (pid ${process.pid}`);
  });

  test('When the holder died without releasing the lock (kill -9), then the next start takes it at once', () => {
    const { dbPath, dbs } = open();
    writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify({ pid: deadPid(), process: 'boot/1', since: '2025-01-01T00:00:00.000Z' }));
    expect(readLockHolder(dbPath)).toBeUndefined();

    lockDataDir(dbs.root, dbPath);

    expect(lockFile(dbPath)).toMatchObject({ pid: process.pid });
  });

  test.runIf(existsSync('/proc/self/stat'))('When the lock names a live pid that another process started (pid reuse), then it is taken', () => {
    const { dbPath, dbs } = open();
    const stale = { pid: process.pid, process: 'an-earlier-boot/12345', since: '2025-01-01T00:00:00.000Z' };
    writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify(stale));

    lockDataDir(dbs.root, dbPath);

    expect(lockFile(dbPath).process).not.toBe(stale.process);
  });

  test("When the lock file is another server's, then release leaves it", () => {
    const { dbPath, dbs } = open();
    const lock = lockDataDir(dbs.root, dbPath);
    const other = JSON.stringify({ pid: 1, process: '', since: '2025-01-01T00:00:00.000Z' });
    writeFileSync(lock.file, other);

    lock.release();

    expect(readFileSync(lock.file, 'utf8')).toBe(other);
  });
});
