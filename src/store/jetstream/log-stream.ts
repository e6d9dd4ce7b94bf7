// The JetStream stream that holds every shop's log: one subject per shop under one prefix, kept on
// file, replicated to `replicas` servers (a write is acknowledged once a quorum has it), with the
// publish de-duplication window covering a client's retries. A stream that already exists must have
// these settings: a node never writes into a stream set up otherwise (fewer replicas, other
// subjects, a shorter retention) without saying so, which would silently weaken what an
// acknowledged write promises.
import { randomBytes } from 'node:crypto';
import { DiscardPolicy, JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type StreamConfig, type StreamInfo } from '@nats-io/jetstream';
import { StartupError } from '../../errors.js';

export interface LogStreamSettings {
  /** The stream's name. */
  name: string;
  /** Subjects are `<prefix>.<shopId>`. */
  subjectPrefix: string;
  /** Servers holding each message (1-5). */
  replicas: number;
  /** Messages older than this are dropped by JetStream (0: kept until removed). */
  maxAgeMs: number;
  /** The stream's size past which its oldest messages are dropped, in bytes (-1: no bound). */
  maxBytes: number;
  /** How long a publish's message id is remembered, so a retried publish is stored once. */
  duplicateWindowMs: number;
}

const NANOS_PER_MS = 1_000_000;

/** The settings a log stream must have, as JetStream names them. */
function wanted(settings: LogStreamSettings): Partial<StreamConfig> & { name: string } {
  return {
    name: settings.name,
    subjects: [`${settings.subjectPrefix}.*`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    num_replicas: settings.replicas,
    max_age: settings.maxAgeMs * NANOS_PER_MS,
    max_bytes: settings.maxBytes,
    duplicate_window: settings.duplicateWindowMs * NANOS_PER_MS,
  };
}

/** The subject of a shop's log. */
export function shopSubject(subjectPrefix: string, shopId: string): string {
  return `${subjectPrefix}.${shopId}`;
}

/** The shop a subject of the log names. */
export function subjectShop(subjectPrefix: string, subject: string): string {
  return subject.slice(subjectPrefix.length + 1);
}

/** Each setting of `existing` that differs from what the log needs: "num_replicas is 1, not 3". */
export function settingDifferences(existing: StreamConfig, settings: LogStreamSettings): string[] {
  const differences: string[] = [];
  for (const [field, value] of Object.entries(wanted(settings)) as [keyof StreamConfig, unknown][]) {
    const actual = existing[field];
    if (JSON.stringify(actual) !== JSON.stringify(value)) differences.push(`${field} is ${JSON.stringify(actual)}, not ${JSON.stringify(value)}`);
  }
  return differences;
}

/** Creates the log's stream, or checks that the one there has its settings; throws a StartupError naming each difference, NATS's error when it cannot create it. */
export async function ensureLogStream(jsm: JetStreamManager, settings: LogStreamSettings): Promise<StreamInfo> {
  let info: StreamInfo | undefined;
  try {
    info = await jsm.streams.info(settings.name);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
  }
  // A refusal to create it is JetStream's answer while its cluster forms ("no suitable peers for
  // placement" until every server joined): the caller tries again (connection.ts whenAnswered).
  if (info === undefined) return await jsm.streams.add(wanted(settings));
  const differences = settingDifferences(info.config, settings);
  if (differences.length > 0) {
    throw new StartupError(
      `the JetStream stream "${settings.name}" exists with other settings than this node's: ${differences.join('; ')}. ` +
        'Change the node\'s settings to match, or update the stream (nats stream edit) if that is what you meant.',
    );
  }
  return info;
}

/** The replicas of the stream `name` (undefined: there is no such stream yet). */
export async function streamReplicas(jsm: JetStreamManager, name: string): Promise<number | undefined> {
  try {
    return (await jsm.streams.info(name)).config.num_replicas;
  } catch (error) {
    if (isStreamNotFound(error)) return undefined;
    throw error;
  }
}

export function isStreamNotFound(error: unknown): boolean {
  return (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) || /stream not found/i.test((error as Error).message ?? '');
}

/** JetStream's refusal of a publish whose expected last message id is not the stream's last. */
const WRONG_LAST_MSG_ID = 10070;

/**
 * Resolves once the stream's leader answers a publish on `subject` made through this connection,
 * which a stream that exists may not do yet (its leader not elected, or the servers not yet told
 * where it is: "jetstream is not enabled"). The publish expects a last message id the stream never
 * had, so the leader refuses it and stores nothing; any other answer is thrown.
 */
export async function streamTakesPublishes(js: JetStreamClient, subject: string): Promise<void> {
  try {
    await js.publish(subject, new Uint8Array(0), { expect: { lastMsgID: `pairwise-probe-${randomBytes(12).toString('hex')}` } });
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === WRONG_LAST_MSG_ID) return;
    throw error;
  }
  throw new Error(`a probe publish on ${subject} was stored: the stream's last message id matched a random one`);
}
