// Opens the log past one machine (PAIRWISE_NATS): the connection, the stream and the fits object
// store checked or created, this node's follower run under a lease (one process per node
// materializes the stream into the data dir's LMDB), and the writers' log. The log id that write
// positions carry is the stream's, the same on every node, so a position from one node is good on
// any other.
import { createHash } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { StartupError } from '../../errors.js';
import { commitDurably } from '../durable-commit.js';
import type { Databases } from '../database.js';
import type { Log } from '../../observability/log.js';
import { Lease } from '../lease.js';
import type { LmdbShopLog } from '../shop-log.js';
import { ClusterLease } from './cluster-lease.js';
import { clusterSize, connectToLog, whenAnswered } from './connection.js';
import { JetStreamShopLog } from './jetstream-shop-log.js';
import { LogFollower, materializedThrough } from './log-follower.js';
import { ensureLogStream, isStreamNotFound, shopSubject, streamReplicas, streamTakesPublishes, type LogStreamSettings } from './log-stream.js';
import type { NatsConfig } from '../../config/nats.js';
import { isEmptyDataDir, publishBackup, restoreBackup, type BackupInfo } from './node-backups.js';

/** How often a heartbeat is written (for /healthz), and how long it has to be acknowledged. */
const STREAM_CHECK_MS = 2_000;
const STREAM_CHECK_TIMEOUT_MS = 1_000;
/** How long the cluster's refit lease outlives its holder's last renewal. */
const REFIT_LEASE_MS = 10_000;
/**
 * How long the follower's requests (the stream's info, a consumer's creation) wait for an answer:
 * one sent to a NATS server as it went, or to a stream's leader just lost, is never answered, and
 * the follower tries again only once it times out.
 */
const FOLLOWER_REQUEST_TIMEOUT_MS = 2_000;
/** How long the follower lease outlives its holder's last renewal. */
const FOLLOWER_LEASE_MS = 4_000;
/** How long JetStream remembers a publish's message id (a client's retries come within it). */
const DUPLICATE_WINDOW_MS = 2 * 60_000;

export interface ReplicatedLog {
  readonly log: JetStreamShopLog;
  /** The id every node's write positions carry (api/position-token.ts). */
  readonly logId: string;
  readonly settings: LogStreamSettings;
  /** Held by the one process of the cluster that makes EASE fits (published in the log for every node). */
  readonly refitLease: ClusterLease;
  /**
   * What keeps this node from taking writes now, for /healthz (empty: nothing): no connection to
   * NATS, or the stream not answering (no quorum of its replicas: writes get 503, reads go on).
   */
  problems(): string[];
  /** Publishes a backup of this node's data dir now (the housekeeper does so every PAIRWISE_NATS_BACKUP_MINUTES). */
  publishBackup(): Promise<BackupInfo>;
  /** Resolves once this node's log holds every message the stream held when it was called. */
  caughtUp(report: Log): Promise<void>;
  close(): Promise<void>;
}

/** The stream's log id: 8 characters of a-z and 0-9 from its name and creation time, alike on every node. */
export function streamLogId(name: string, created: string): string {
  const digest = createHash('sha256').update(`${name}\n${created}`).digest();
  let id = '';
  for (let i = 0; i < 8; i++) id += (digest[i]! % 36).toString(36);
  return id;
}

/** Takes the stream's log id for this data dir; refuses a data dir whose log is another's. */
async function adoptLogId(dbs: Databases, logId: string, stream: string): Promise<void> {
  const known = dbs.meta.get('logId');
  if (known === logId) return;
  if (known !== undefined && (dbs.logHeads.getKeysCount() > 0 || materializedThrough(dbs) > 0)) {
    throw new StartupError(`this data dir holds another log (id ${known}) than the JetStream stream "${stream}" (id ${logId}): give this node an empty data dir (PAIRWISE_DATA_DIR), or point it at the NATS cluster it was part of`);
  }
  await commitDurably(dbs, () => dbs.meta.put('logId', logId));
}

export async function openReplicatedLog(
  nats: NatsConfig,
  dbs: Databases,
  local: LmdbShopLog,
  retentionMs: number,
  report: Log,
  name: string,
): Promise<ReplicatedLog> {
  const nc: NatsConnection = await connectToLog(nats.urls, { name, report });
  let reconnects = 0;
  let follower: LogFollower | undefined;
  let connected = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'reconnect') {
        reconnects++;
        connected = true;
        report(`reconnected to NATS at ${status.server}`, { event: 'nats-reconnect', server: status.server, reconnects });
        follower?.restart(true);
      } else if (status.type === 'disconnect') {
        connected = false;
        report(`lost NATS at ${status.server}: reconnecting`, { event: 'nats-disconnect', level: 'warn', server: status.server });
      }
    }
  })();
  try {
    const answered = <T>(what: string, request: () => Promise<T>) => whenAnswered(what, request, { report });
    const jsm = await answered('JetStream', () => jetstreamManager(nc));
    // Unset, the replicas are the stream's once it exists: the servers the client hears of are
    // only those up now, and a node started while one of three is down must not ask for two. A
    // new stream's are 3, or fewer when the cluster is smaller: by the servers PAIRWISE_NATS
    // lists, or the client hears of if more (a cluster still forming tells of fewer than it has).
    const replicas = nats.replicas ?? (await answered('about the log stream', () => streamReplicas(jsm, nats.stream))) ?? Math.min(3, Math.max(nats.urls.length, clusterSize(nc)));
    const settings: LogStreamSettings = { name: nats.stream, subjectPrefix: `pairwise.${nats.stream}`, replicas, maxAgeMs: retentionMs, maxBytes: nats.maxBytes, duplicateWindowMs: DUPLICATE_WINDOW_MS };
    const info = await answered(`about the log stream "${nats.stream}" (${replicas} replicas)`, () => ensureLogStream(jsm, settings));
    const logId = streamLogId(nats.stream, info.created);
    await adoptLogId(dbs, logId, nats.stream);
    const js = jetstream(nc);
    // Created or found is not yet placed: the start's own writes (a shop from the environment, the
    // demo store) wait until its leader takes a publish.
    await answered('a publish to the log stream', () => streamTakesPublishes(js, shopSubject(settings.subjectPrefix, '_probe')));
    const fits = await answered('about the fits store', () => new Objm(js).create(`${nats.stream}_FITS`, { replicas }));
    const streamLast = async () => (await jsm.streams.info(settings.name)).state.last_seq;
    const materializer = new LogFollower(jetstream(nc, { timeout: FOLLOWER_REQUEST_TIMEOUT_MS }), settings.name, settings.subjectPrefix, local, fits, report, streamLast);
    follower = materializer;
    const lease = new Lease(dbs, 'jetstream-follower', FOLLOWER_LEASE_MS, Date.now, (held) => {
      report(`${held ? 'took' : 'gave up'} the follower lease (this process ${held ? 'materializes' : 'no longer materializes'} the replicated log into the node's log)`, { event: 'lease', lease: 'jetstream-follower', held });
      if (held) materializer.start();
      else void materializer.stop();
    });
    await lease.renew();
    lease.start();
    // Leases and heartbeats; a heartbeat key outlives its process by a minute at most.
    const leases = await answered('about the leases bucket', () => new Kvm(js).create(`${nats.stream}_LEASES`, { replicas, history: 1, ttl: 60_000 }));
    const refitLease = new ClusterLease(leases, 'ease-refits', REFIT_LEASE_MS, Date.now, (held) => {
      report(`${held ? 'took' : 'gave up'} the cluster's refit lease (EASE fits and node backups)`, { event: 'lease', lease: 'ease-refits', held });
    });
    await refitLease.renew();
    refitLease.start();
    // The holder of the cluster's lease also publishes node backups (a new node starts from the latest).
    const backups = await answered('about the backups store', () => new Objm(js).create(`${nats.stream}_BACKUPS`, { replicas }));
    const publish = () => publishBackup(dbs, backups, Date.now());
    const backupTimer =
      nats.backupIntervalMs > 0
        ? setInterval(() => {
            if (!refitLease.held) return;
            publish().then(
              (info) => report(`published a node backup at sequence ${info.seq}`, { event: 'node-backup', seq: info.seq }),
              (error: unknown) => report(`publishing a node backup failed: ${String(error)}`, { event: 'node-backup-failed', level: 'error', error: String(error) }),
            );
          }, nats.backupIntervalMs)
        : undefined;
    backupTimer?.unref();
    const log = new JetStreamShopLog(js, settings.subjectPrefix, local, fits, () => reconnects, () => materializer.restart());
    // Whether the cluster takes writes: a heartbeat written to the (replicated) leases bucket, which
    // needs a quorum as a write to the log does. Stream info alone can be answered without one.
    let writable = true;
    const heartbeats = await answered('about the leases bucket', () => new Kvm(jetstream(nc, { timeout: STREAM_CHECK_TIMEOUT_MS })).open(`${nats.stream}_LEASES`));
    const heartbeat = `heartbeat.${refitLease.holder.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const checkStream = setInterval(() => {
      heartbeats.put(heartbeat, String(Date.now())).then(
        () => (writable = true),
        () => (writable = false),
      );
    }, STREAM_CHECK_MS);
    checkStream.unref();
    return {
      log,
      logId,
      settings,
      refitLease,
      publishBackup: publish,
      problems() {
        if (!connected) return [`not connected to NATS (${nats.urls.join(', ')}): reconnecting`];
        if (!writable) return [`the NATS cluster takes no writes (no quorum of the ${replicas} replicas): writes are refused with 503, reads are served from this node's copy of the log`];
        return [];
      },
      async caughtUp(say) {
        const last = await whenAnswered('about the log stream', streamLast, { report: say });
        const started = Date.now();
        let saidAt = started;
        for (;;) {
          dbs.root.resetReadTxn();
          if (materializedThrough(dbs) >= last) return;
          if (Date.now() - saidAt >= 5_000) {
            saidAt = Date.now();
            const through = materializedThrough(dbs);
            const seconds = Math.round((Date.now() - started) / 1000);
            say(`catching up with the replicated log: ${through} of ${last} (${seconds} s)`, { event: 'replicated-log-catching-up', seq: through, last, seconds });
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      },
      async close() {
        clearInterval(checkStream);
        clearInterval(backupTimer);
        await refitLease.release();
        await lease.release();
        await materializer.stop();
        await nc.drain().catch(() => nc.close());
      },
    };
  } catch (error) {
    await nc.close();
    throw error;
  }
}

/**
 * Before a node opens an empty data dir: restores the latest published node backup into it, so the
 * node reads the stream only from the sequence after the backup's. Nothing when the data dir has a
 * log already or no backup was published.
 */
export async function restoreNodeBackup(nats: NatsConfig, dbPath: string, report: Log): Promise<BackupInfo | undefined> {
  if (!isEmptyDataDir(dbPath)) return undefined;
  const nc = await connectToLog(nats.urls, { name: 'pairwise restore', report });
  try {
    const jsm = await whenAnswered('JetStream', () => jetstreamManager(nc), { report });
    const store = `OBJ_${nats.stream}_BACKUPS`; // the object store's stream
    const exists = await whenAnswered('about the backups store', () => jsm.streams.info(store).then(() => true, (error: unknown) => (isStreamNotFound(error) ? false : Promise.reject(error))), { report });
    if (!exists) return undefined;
    const info = await whenAnswered('for the node backup', async () => restoreBackup(await new Objm(jetstream(nc)).open(`${nats.stream}_BACKUPS`), dbPath), { report });
    if (info !== undefined) report(`restored the node backup of ${new Date(info.at).toISOString()} (stream sequence ${info.seq}); reading the stream from there`, { event: 'node-backup-restored', seq: info.seq, at: new Date(info.at).toISOString() });
    return info;
  } finally {
    await nc.close();
  }
}
