// How many CPU cores this process may use: its affinity (what Node's availableParallelism reports
// on Linux) and, below that, a cgroup v2 CPU quota (cpu.max, as containers set it).
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';

export function usableCores(cgroupCpuMax = '/sys/fs/cgroup/cpu.max'): number {
  let cores = availableParallelism();
  try {
    const [quota, period] = readFileSync(cgroupCpuMax, 'utf8').trim().split(/\s+/);
    if (quota !== undefined && quota !== 'max' && Number(period) > 0) cores = Math.min(cores, Math.max(1, Math.ceil(Number(quota) / Number(period))));
  } catch {
    // no cgroup v2 quota readable: the affinity alone decides
  }
  return Math.max(1, cores);
}
