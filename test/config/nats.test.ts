// PAIRWISE_NATS and its companions, parsed: every valid setting read as meant, everything else
// refused with a message naming the variable.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { natsConfig, NatsConfigError } from '../../src/config/nats.js';

const host = fc.oneof(fc.constantFrom('127.0.0.1', 'localhost', 'nats-1', '10.0.0.7'), fc.domain());
const port = fc.integer({ min: 1, max: 65_535 });

describe('natsConfig', () => {
  test('When PAIRWISE_NATS is unset or empty, then there is no replicated log', () => {
    expect(natsConfig({})).toBeUndefined();
    expect(natsConfig({ PAIRWISE_NATS: ' ' })).toBeUndefined();
  });

  test('When PAIRWISE_NATS lists hosts and ports (scheme and port optional), then each is read as nats://host:port, 4222 by default', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(host, fc.option(port, { nil: undefined }), fc.boolean()), { minLength: 1, maxLength: 16 }), (servers) => {
        const raw = servers.map(([h, p, scheme]) => `${scheme ? 'nats://' : ''}${h}${p === undefined ? '' : `:${p}`}`).join(' , ');
        const config = natsConfig({ PAIRWISE_NATS: raw })!;
        expect(config.urls).toEqual(servers.map(([h, p]) => `nats://${new URL(`nats://${h}`).hostname}:${p ?? 4222}`));
        expect(config).toMatchObject({ replicas: undefined, stream: 'PAIRWISE', backupIntervalMs: 3_600_000, maxBytes: -1 });
      }),
    );
  });

  test('When a URL is not nats://host:port, then the start is refused naming PAIRWISE_NATS', () => {
    for (const raw of ['http://a:4222', 'nats://a:4222/path', 'nats://a:4222?x=1', 'nats://:4222', 'nats://a:99999', Array.from({ length: 17 }, () => 'a').join(',')]) {
      expect(() => natsConfig({ PAIRWISE_NATS: raw }), raw).toThrow(NatsConfigError);
      expect(() => natsConfig({ PAIRWISE_NATS: raw }), raw).toThrow(/PAIRWISE_NATS/);
    }
  });

  test('When the replicas, stream and backup interval are set, then valid values are taken and others refused by name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/), fc.integer({ min: 0, max: 10_080 }), (replicas, stream, minutes) => {
        const config = natsConfig({ PAIRWISE_NATS: 'a', PAIRWISE_NATS_REPLICAS: String(replicas), PAIRWISE_NATS_STREAM: stream, PAIRWISE_NATS_BACKUP_MINUTES: String(minutes) })!;
        expect(config).toMatchObject({ replicas, stream, backupIntervalMs: minutes * 60_000 });
      }),
    );
    fc.assert(
      fc.property(fc.string().filter((s) => !/^[1-5]$/.test(s) && s !== ''), (raw) => {
        expect(() => natsConfig({ PAIRWISE_NATS: 'a', PAIRWISE_NATS_REPLICAS: raw })).toThrow(/PAIRWISE_NATS_REPLICAS/);
      }),
    );
    fc.assert(
      fc.property(fc.string().filter((s) => s !== '' && !/^[A-Za-z0-9_-]{1,32}$/.test(s)), (raw) => {
        expect(() => natsConfig({ PAIRWISE_NATS: 'a', PAIRWISE_NATS_STREAM: raw })).toThrow(/PAIRWISE_NATS_STREAM/);
      }),
    );
    for (const raw of ['-1', '1.5', '10081', 'hourly']) expect(() => natsConfig({ PAIRWISE_NATS: 'a', PAIRWISE_NATS_BACKUP_MINUTES: raw })).toThrow(/PAIRWISE_NATS_BACKUP_MINUTES/);
    expect(natsConfig({ PAIRWISE_NATS: 'a', PAIRWISE_NATS_MAX_GB: '2.5' })!.maxBytes).toBe(2.5 * 2 ** 30);
    for (const raw of ['0', '-1', '1e3', 'big', '2000000']) expect(() => natsConfig({ PAIRWISE_NATS: 'a', PAIRWISE_NATS_MAX_GB: raw })).toThrow(/PAIRWISE_NATS_MAX_GB/);
  });
});
