// CPU pinning on a small machine (taskset): the server on one core, the load generator on
// another, so neither steals the other's cycles. Off when taskset is missing or there is one CPU.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { flag } from './settings.js';

export interface Pinning {
  enabled: boolean;
  serverCpu?: number;
  loadCpu?: number;
  /** Why pinning is on or off, for the report. */
  note: string;
}

function hasTaskset(): boolean {
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

export function detectPinning(): Pinning {
  if (!flag('BENCH_PIN', true)) return { enabled: false, note: 'disabled by BENCH_PIN=0' };
  const cpus = os.availableParallelism();
  if (cpus < 2) return { enabled: false, note: `only ${cpus} CPU: server and load generator share it` };
  if (!hasTaskset()) return { enabled: false, note: 'taskset not found: processes are not pinned' };
  const serverCpu = Number(process.env.BENCH_SERVER_CPU ?? 1);
  const loadCpu = Number(process.env.BENCH_LOAD_CPU ?? 0);
  return { enabled: true, serverCpu, loadCpu, note: `server on CPU ${serverCpu}, load generator on CPU ${loadCpu} (taskset)` };
}

/** Pins every thread of this process (where autocannon runs) to the load generator's CPU. */
export function pinSelfToLoadCpu(pinning: Pinning): void {
  if (!pinning.enabled) return;
  const result = spawnSync('taskset', ['-a', '-p', '-c', String(pinning.loadCpu), String(process.pid)], { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`taskset could not pin the benchmark process to CPU ${pinning.loadCpu}`);
}

/** The command line that runs `command args` on `cpu`, or unchanged when pinning is off. */
export function pinned(pinning: Pinning, cpu: number | undefined, command: string, args: readonly string[]): [string, string[]] {
  if (!pinning.enabled || cpu === undefined) return [command, [...args]];
  return ['taskset', ['-c', String(cpu), command, ...args]];
}
