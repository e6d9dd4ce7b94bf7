// The one start-up line that says where the models came from: a new data dir (empty, or the demo
// store just seeded), or shops restored from snapshots and rebuilt by replaying the event log.
import type { DemoSeeded } from './demo/seed-demo-store.js';
import type { ReplayStats } from './ingest/replay.js';

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** How the models were rebuilt from what the data dir held; undefined when it held no shop. */
function rebuilt(replayed: ReplayStats): string | undefined {
  const { shops, snapshots, events, products } = replayed;
  if (shops === 0) return undefined;
  const fromLog = shops - snapshots;
  let how: string;
  if (fromLog === 0) how = `${count(shops, 'shop')} restored from ${shops === 1 ? 'its snapshot' : 'snapshots'}, then ${count(events, 'event')} after ${shops === 1 ? 'it' : 'them'} replayed`;
  else if (snapshots === 0) how = `${count(shops, 'shop')} rebuilt from the event log (${count(events, 'event')} replayed)`;
  else how = `${count(shops, 'shop')}: ${snapshots} restored from snapshots, ${fromLog} rebuilt from the event log; ${count(events, 'event')} replayed`;
  return `${how}, ${count(products, 'product')} loaded in ${duration(replayed.ms)}`;
}

export function startupSummary(dbPath: string, replayed: ReplayStats, seeded?: DemoSeeded): string {
  const parts: string[] = [];
  const found = rebuilt(replayed);
  if (found !== undefined) parts.push(found);
  if (seeded !== undefined) parts.push(`seeded the demo store with ${count(seeded.products, 'product')} and ${count(seeded.events, 'event')} in ${duration(seeded.ms)}`);
  if (parts.length === 0) return `data: ${dbPath} (new and empty)`;
  return `data: ${dbPath}${found === undefined ? ' (new)' : ''}: ${parts.join('; ')}`;
}
