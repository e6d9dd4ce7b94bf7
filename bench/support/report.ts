// The end of every benchmark: a table with each row's ratio to the baseline of the same tool in
// the same run, and the same rows as JSON in bench/results/<name>-<timestamp>.json (git-ignored).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load-result.js';

export interface Row extends LoadResult {
  /** What was measured, e.g. "GET /api/recommendations (mix)". */
  label: string;
  /** The row is a baseline (its ratio is 1 by definition). */
  baseline?: boolean;
  /** Free text: events/s, errors… */
  note?: string;
  /** requestsPerSec / the baseline req/s it is compared with (see bracketed.ts). */
  ratio?: number;
  /** The baseline req/s behind `ratio`: the mean of the runs just before and just after. */
  baselineRequestsPerSec?: number;
  /** How much the after-baseline differs from the before-baseline, in percent. */
  baselineMovedPercent?: number;
}

function pad(text: string, width: number, right: boolean): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

export function table(rows: readonly Row[]): string {
  const header = ['path', 'tool', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'notes'];
  const body = rows.map((r) => [
    r.label,
    r.tool,
    Math.round(r.requestsPerSec).toLocaleString('en-US'),
    r.latencyP50Ms.toFixed(2),
    r.latencyP99Ms.toFixed(2),
    r.ratio === undefined ? '-' : r.ratio.toFixed(2),
    [r.note, r.non2xx > 0 ? `${r.non2xx} non-2xx!` : '', r.errors > 0 ? `${r.errors} errors!` : ''].filter(Boolean).join('; '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const right = [false, false, true, true, true, true, false];
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!, right[i]!)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bench');

/** Read-only git queries; undefined outside a repository. */
function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: benchDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Machine facts that explain absolute numbers (which drift; the ratios are what to compare). */
export function environment(): Record<string, unknown> {
  return {
    node: process.version,
    platform: `${process.platform} ${os.release()}`,
    cpus: os.cpus().map((c) => c.model).filter((m, i, all) => all.indexOf(m) === i),
    // os.cpus(), not availableParallelism(): the latter only counts CPUs this (pinned) process may use.
    cpuCount: os.cpus().length,
    git: git('rev-parse', '--short', 'HEAD'),
    /** Uncommitted changes under src/ were measured too. */
    srcDirty: (git('status', '--porcelain', '--', 'src') ?? '') !== '',
    /** glibc allocator settings from the environment (npm start and bench:engine set MALLOC_TRIM_THRESHOLD_). */
    malloc: Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_') || name === 'GLIBC_TUNABLES')),
  };
}

/** Writes bench/results/<name>-<timestamp>.json; returns its path. */
export function writeResults(name: string, document: Record<string, unknown>): string {
  const dir = path.join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `${name}-${stamp}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2) + '\n');
  return file;
}
