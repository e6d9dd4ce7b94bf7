// PAIRWISE_NATS and its companions: where the replicated log lives, read from the environment. Unset,
// the log is the data dir's LMDB (one machine); set, every node's log is one JetStream stream.

/** The replicated log's settings (src/config.ts reads them). */
export interface NatsConfig {
  /** The cluster's client URLs (nats://host:port), any of which the node may use. */
  urls: readonly string[];
  /** Servers holding each message; undefined: the stream's if it exists, else 3, or the cluster's size (servers up) if smaller. */
  replicas: number | undefined;
  /** The stream's name; its subjects are `pairwise.<name>.<shopId>`. */
  stream: string;
  /** How often the cluster's housekeeper publishes a node backup, in ms (0: never). */
  backupIntervalMs: number;
  /** The stream's size bound in bytes, its oldest messages dropped past it (-1: none; its age is bounded by the retention). */
  maxBytes: number;
}

export class NatsConfigError extends Error {}

/** At most this many URLs (a cluster's seed list, not a directory). */
const MAX_URLS = 16;
const STREAM_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** One URL of PAIRWISE_NATS, normalized to nats://host:port (4222 when the port is left out). */
function natsUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `nats://${raw}`);
  } catch {
    throw new NatsConfigError(`PAIRWISE_NATS: "${raw}" is not a URL (nats://host:port)`);
  }
  if (url.protocol !== 'nats:' && url.protocol !== 'tls:') throw new NatsConfigError(`PAIRWISE_NATS: "${raw}" is not a nats:// or tls:// URL`);
  if (url.hostname === '' || url.pathname.replace(/^\/+/, '') !== '' || url.search !== '' || url.hash !== '') {
    throw new NatsConfigError(`PAIRWISE_NATS: "${raw}" must be scheme://host:port and nothing else`);
  }
  return `${url.protocol}//${url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : ''}${url.host}${url.port === '' ? ':4222' : ''}`;
}

/** The replicated log's settings from the environment; undefined when PAIRWISE_NATS is unset or empty. */
export function natsConfig(env: NodeJS.ProcessEnv): NatsConfig | undefined {
  const raw = env.PAIRWISE_NATS?.trim();
  if (raw === undefined || raw === '') return undefined;
  const urls = raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (urls.length === 0 || urls.length > MAX_URLS) throw new NatsConfigError(`PAIRWISE_NATS must list 1 to ${MAX_URLS} URLs (nats://host:port, comma-separated), got "${raw}"`);
  const replicasRaw = env.PAIRWISE_NATS_REPLICAS;
  let replicas: number | undefined;
  if (replicasRaw !== undefined && replicasRaw !== '') {
    if (!/^[1-5]$/.test(replicasRaw)) throw new NatsConfigError(`PAIRWISE_NATS_REPLICAS must be 1 to 5 (JetStream's limit), got "${replicasRaw}"`);
    replicas = Number(replicasRaw);
  }
  const stream = env.PAIRWISE_NATS_STREAM || 'PAIRWISE';
  if (!STREAM_NAME.test(stream)) throw new NatsConfigError(`PAIRWISE_NATS_STREAM must be 1 to 32 of A-Z, a-z, 0-9, _ and -, got "${stream}"`);
  const backupRaw = env.PAIRWISE_NATS_BACKUP_MINUTES;
  let backupMinutes = 60;
  if (backupRaw !== undefined && backupRaw !== '') {
    if (!/^[0-9]{1,5}$/.test(backupRaw) || Number(backupRaw) > 10_080) throw new NatsConfigError(`PAIRWISE_NATS_BACKUP_MINUTES must be a whole number of minutes from 0 (never) to 10080 (a week), got "${backupRaw}"`);
    backupMinutes = Number(backupRaw);
  }
  const maxRaw = env.PAIRWISE_NATS_MAX_GB;
  let maxBytes = -1;
  if (maxRaw !== undefined && maxRaw !== '') {
    const gb = Number(maxRaw);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(maxRaw) || gb < 0.001 || gb > 1_000_000) throw new NatsConfigError(`PAIRWISE_NATS_MAX_GB must be a size in GB from 0.001 to 1000000, got "${maxRaw}"`);
    maxBytes = Math.round(gb * 2 ** 30);
  }
  return { urls: urls.map(natsUrl), replicas, stream, backupIntervalMs: backupMinutes * 60_000, maxBytes };
}
