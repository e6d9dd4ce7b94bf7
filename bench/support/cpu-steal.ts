// CPU time the host took from this machine (a VM's "steal"): the 8th field of /proc/stat's `cpu`
// line, in clock ticks over all CPUs. On a shared VM a benchmark's wall time includes it, so a
// slow stretch can be the host's, not the code's: benchmarks report it beside their rates.
import { readFileSync } from 'node:fs';

export interface CpuTicks {
  steal: number;
  /** Every field of the line: the ticks of all CPUs in every state. */
  total: number;
}

/** All CPUs' ticks now; undefined where /proc/stat is not there (not Linux). */
export function cpuTicks(): CpuTicks | undefined {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return undefined;
  }
  const fields = line?.startsWith('cpu ') ? line.slice(4).trim().split(/\s+/).map(Number) : [];
  if (fields.length < 8) return undefined;
  return { steal: fields[7]!, total: fields.reduce((sum, ticks) => sum + ticks, 0) };
}

/** The share of all CPUs' time the host took between two readings (undefined when either is missing). */
export function stealShare(before: CpuTicks | undefined, after: CpuTicks | undefined): number | undefined {
  if (before === undefined || after === undefined || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}
