// The log's JetStream stream against a real 3-server nats-server cluster: created replicated,
// accepted again as it is, refused (naming each difference) when set up otherwise; and the start
// that cannot reach NATS says where it tried and waits longer each time.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { StartupError } from '../../../src/errors.js';
import { NoRespondersError, TimeoutError } from '@nats-io/transport-node';
import { clusterSize, connectToLog, retryWaitMs, whenAnswered } from '../../../src/store/jetstream/connection.js';
import { ensureLogStream, streamReplicas, type LogStreamSettings } from '../../../src/store/jetstream/log-stream.js';
import { freePort } from '../../support/child-server.js';
import { NatsCluster } from '../../support/nats-cluster.js';

const settings: LogStreamSettings = { name: 'PAIRWISE_TEST', subjectPrefix: 'pairwise.test', replicas: 3, maxAgeMs: 400 * 86_400_000, maxBytes: -1, duplicateWindowMs: 120_000 };

describe('the log stream on a 3-server cluster', () => {
  let cluster: NatsCluster;
  let nc: NatsConnection;
  beforeAll(async () => {
    cluster = await NatsCluster.start(3);
    nc = await connectToLog(cluster.urls, { name: 'test', report: () => {} });
  }, 60_000);
  afterAll(async () => {
    await nc?.close();
    await cluster?.stop();
  });

  test('the connection knows the cluster has 3 servers', () => {
    expect(clusterSize(nc)).toBe(3);
  });

  test('is created with 3 replicas, then accepted as it is', async () => {
    const jsm = await jetstreamManager(nc);
    const created = await ensureLogStream(jsm, settings);
    expect(created.config.num_replicas).toBe(3);
    expect(created.config.subjects).toEqual(['pairwise.test.*']);
    const again = await ensureLogStream(jsm, settings);
    expect(again.created).toEqual(created.created);
  });

  test('its replicas are read from the stream once it exists (a node started with a server down asks for no fewer)', async () => {
    const jsm = await jetstreamManager(nc);
    await ensureLogStream(jsm, settings);
    expect(await streamReplicas(jsm, settings.name)).toBe(3);
    expect(await streamReplicas(jsm, 'NO_SUCH_STREAM')).toBeUndefined();
  });

  test('set up otherwise, it is refused with every difference named', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'PAIRWISE_OTHER', subjects: ['pairwise.other.*'], num_replicas: 1, max_age: 0, duplicate_window: 120_000_000_000 });
    const other = { ...settings, name: 'PAIRWISE_OTHER', subjectPrefix: 'pairwise.other' };
    const refusal = await ensureLogStream(jsm, other).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StartupError);
    expect((refusal as Error).message).toContain('num_replicas is 1, not 3');
    expect((refusal as Error).message).toContain(`max_age is 0, not ${400 * 86_400_000 * 1_000_000}`);
    expect((refusal as Error).message).not.toContain('duplicate_window');
    expect((refusal as Error).message).not.toContain('max_bytes');
    // A size bound set on the node and not on the stream is a difference too.
    const bounded = await ensureLogStream(jsm, { ...other, replicas: 1, maxAgeMs: 0, maxBytes: 2 ** 30 }).catch((error: unknown) => error);
    expect((bounded as Error).message).toContain(`max_bytes is -1, not ${2 ** 30}`);
  });
});

test('a start that cannot reach NATS names every URL and waits longer each time, until stopped', async () => {
  const urls = [`nats://127.0.0.1:${await freePort()}`, `nats://127.0.0.1:${await freePort()}`];
  const reports: string[] = [];
  const waits: number[] = [];
  const stop = new AbortController();
  const attempt = connectToLog(urls, {
    name: 'test',
    report: (line) => reports.push(line),
    signal: stop.signal,
    sleep: async (ms) => {
      waits.push(ms);
      if (waits.length === 3) stop.abort();
    },
  });
  await expect(attempt).rejects.toThrow();
  expect(waits).toEqual([1_000, 2_000, 4_000]);
  expect(reports).toHaveLength(3);
  for (const line of reports) expect(line).toContain(`cannot reach NATS at ${urls.join(', ')}`);
  expect(reports[2]).toContain('trying again in 4 s');
});

test('the wait between attempts doubles up to 30 s', () => {
  expect([1, 2, 3, 4, 5, 6, 7, 100].map(retryWaitMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
});

test('When a JetStream request at start is not answered, then it is tried again with growing waits; another error is thrown at once', async () => {
  const reports: string[] = [];
  const waits: number[] = [];
  let calls = 0;
  const answer = await whenAnswered('about the log stream', async () => {
    if (++calls <= 2) throw new TimeoutError();
    return 'answered';
  }, { report: (line) => reports.push(line), sleep: async (ms) => void waits.push(ms) });
  expect(answer).toBe('answered');
  expect(waits).toEqual([1_000, 2_000]);
  expect(reports[0]).toContain('did not answer about the log stream (attempt 1: timeout)');
  await expect(whenAnswered('x', async () => {
    throw new StartupError('set up otherwise');
  }, { report: () => {}, sleep: async () => {} })).rejects.toThrow('set up otherwise');
  await expect(whenAnswered('x', async () => {
    throw new TypeError('a bug');
  }, { report: () => {}, sleep: async () => {} })).rejects.toThrow('a bug');
});

test('When a NATS cluster is still forming, then whatever it answers first is tried again', async () => {
  // What nats-server 2.9 and the client answer meanwhile: no server took the request yet, no meta
  // leader, not every server joined (no peers to place a stream on), nothing in time.
  const forming = [
    Object.assign(new Error('jetstream is not enabled'), { name: 'JetStreamNotEnabled' }),
    new NoRespondersError('$JS.API.INFO'),
    new JetStreamApiError({ err_code: 10008, code: 503, description: 'JetStream cluster not available' }),
    new JetStreamApiError({ err_code: 10005, code: 500, description: 'no suitable peers for placement' }),
    new TimeoutError(),
  ];
  const reports: string[] = [];
  let calls = 0;
  const answer = await whenAnswered('about the log stream', async () => {
    if (calls < forming.length) throw forming[calls++]!;
    return 'answered';
  }, { report: (line) => reports.push(line), sleep: async () => {} });
  expect(answer).toBe('answered');
  expect(reports.map((line) => /\(attempt (\d+): /.exec(line)?.[1])).toEqual(['1', '2', '3', '4', '5']);
  expect(reports[0]).toContain('(attempt 1: jetstream is not enabled)');
  expect(reports[3]).toContain('(attempt 4: no suitable peers for placement)');
});
