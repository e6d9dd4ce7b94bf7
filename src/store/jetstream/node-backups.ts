// Node backups: a compacted copy of one node's LMDB data dir (its log, tables, model snapshots and
// the stream sequence it holds, all from one read transaction), published to a JetStream object
// store by the cluster's housekeeper. A node started on an empty data dir restores the latest one
// before it opens LMDB and then reads the stream only from the sequence after it: the stream's
// retention may drop the messages before that, and a new node still has the whole history.
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ObjectStore } from '@nats-io/obj';
import { open } from 'lmdb';
import type { Databases } from '../database.js';

/** The object holding the latest backup (each one replaces the one before). */
export const BACKUP_OBJECT = 'node-backup';
/** The LMDB file inside a data dir's db/ folder. */
const DATA_FILE = 'data.mdb';

/** What a backup's description says about it. */
export interface BackupInfo {
  /** The last stream sequence the copy holds. */
  seq: number;
  /** Its log id (the stream's). */
  logId: string;
  /** When it was taken (epoch ms). */
  at: number;
}

/** The stream sequence a copied data dir holds (read from the copy itself, which one read transaction made). */
function copiedSeq(dir: string): number {
  const copy = open({ path: dir, maxDbs: 32, readOnly: true });
  try {
    return (copy.openDB({ name: 'replica-state', encoding: 'msgpack' }).get('seq') as number | undefined) ?? 0;
  } finally {
    void copy.close();
  }
}

/** Copies the node's data dir (compacted) and publishes it; resolves with what it holds. */
export async function publishBackup(dbs: Databases, objects: ObjectStore, at: number): Promise<BackupInfo> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pairwise-backup-'));
  try {
    await dbs.root.backup(dir, true);
    const info: BackupInfo = { seq: copiedSeq(dir), logId: dbs.meta.get('logId') ?? '', at };
    const data = Readable.toWeb(createReadStream(path.join(dir, DATA_FILE))) as unknown as ReadableStream<Uint8Array>;
    await objects.put({ name: BACKUP_OBJECT, description: JSON.stringify(info) }, data);
    return info;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the data dir's db/ folder has no LMDB file yet (a new node, or one whose disk was replaced). */
export function isEmptyDataDir(dbPath: string): boolean {
  return !existsSync(path.join(dbPath, DATA_FILE));
}

/**
 * Writes the latest published backup into an empty db/ folder; resolves with what it holds, or
 * undefined when none was published. The file is written under a temporary name and renamed, so a
 * start that fails half-way leaves the folder empty.
 */
export async function restoreBackup(objects: ObjectStore, dbPath: string): Promise<BackupInfo | undefined> {
  const found = await objects.get(BACKUP_OBJECT);
  if (found === null) return undefined;
  const info = JSON.parse(found.info.description ?? '{}') as BackupInfo;
  mkdirSync(dbPath, { recursive: true });
  const partial = path.join(dbPath, `${DATA_FILE}.restoring`);
  await pipeline(Readable.fromWeb(found.data as unknown as WebReadableStream<Uint8Array>), createWriteStream(partial));
  const failure = await found.error;
  if (failure) {
    rmSync(partial, { force: true });
    throw failure;
  }
  renameSync(partial, path.join(dbPath, DATA_FILE));
  return info;
}
