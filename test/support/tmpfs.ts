// A small tmpfs of a test's own, to fill a disk for real. Mounting needs root (CI runs as root);
// elsewhere `tmpfsUnavailable()` says why, and the tests that need one are skipped.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CHUNK = Buffer.alloc(64 * 1024, 0x5a);

export class Tmpfs {
  private constructor(readonly dir: string) {}

  static mount(sizeBytes: number): Tmpfs {
    const dir = mkdtempSync(path.join(tmpdir(), 'pairwise-tmpfs-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      const why = String((error as { stderr?: Buffer }).stderr ?? error).trim().split('\n')[0];
      throw new Error(`mount -t tmpfs failed: ${why}`);
    }
    return new Tmpfs(dir);
  }

  /** Bytes still free on it. */
  get free(): number {
    const stats = statfsSync(this.dir);
    return stats.bavail * stats.bsize;
  }

  /** Writes a filler file until at most `leaveBytes` are free (0: until the disk is full); returns its path. */
  fill(name: string, leaveBytes = 0): string {
    const file = path.join(this.dir, name);
    const fd = openSync(file, 'a');
    try {
      while (this.free > leaveBytes) writeSync(fd, CHUNK, 0, Math.min(CHUNK.length, Math.max(4096, this.free - leaveBytes)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
    return file;
  }

  /** Lazily, so a file still open here cannot keep it mounted. */
  unmount(): void {
    execFileSync('umount', ['-l', this.dir], { stdio: 'pipe' });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Why no tmpfs can be mounted here, or undefined when one can. */
export function tmpfsUnavailable(): string | undefined {
  try {
    Tmpfs.mount(1 << 20).unmount();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
