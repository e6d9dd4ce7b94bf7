import { rmSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { importFile } from '../../src/cli/import-file.js';
import type { Progress } from '../../src/cli/progress.js';
import type { FileFormat } from '../../src/cli/records.js';
import { DirectSink, type ImportSink } from '../../src/cli/sinks.js';
import { openDatabases } from '../../src/store/database.js';
import { closeDatabases } from '../../src/store/durable-commit.js';
import { storedEvents } from '../support/stored-events.js';
import { tempDataDir } from '../support/service.js';

const dataDir = tempDataDir();
const dbs = openDatabases(path.join(dataDir, 'db'));

type Item = { kind: 'valid'; productId: string } | { kind: 'invalid'; productId: string } | { kind: 'junk' };

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('valid' as const), productId: fc.stringMatching(/^[a-z0-9]{1,6}$/) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('invalid' as const), productId: fc.stringMatching(/^[a-z0-9]{1,6}$/) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'junk' as const }) },
);

/** The items as a file of the format, one a line; returns the text and each item's line. */
function fileOf(items: Item[], format: FileFormat): { text: string; lines: number[] } {
  const event = (i: Item) => (i.kind === 'junk' ? undefined : { type: i.kind === 'valid' ? 'view' : 'bogus', productId: i.productId, sessionId: 's' });
  if (format === 'csv') {
    const rows = items.map((i) => (i.kind === 'junk' ? 'view,only-two' : `${event(i)!.type},${i.productId},s`));
    return { text: ['type,productId,sessionId', ...rows].join('\n'), lines: items.map((_, n) => n + 2) };
  }
  const texts = items.map((i) => (i.kind === 'junk' ? (format === 'json' ? '{"type": }' : '{"type":') : JSON.stringify(event(i))));
  if (format === 'ndjson') return { text: texts.join('\n'), lines: items.map((_, n) => n + 1) };
  return { text: ['[', texts.join(',\n'), ']'].join('\n'), lines: items.map((_, n) => n + 2) };
}

let shops = 0;

describe('importFile', () => {
  afterAll(async () => {
    await closeDatabases(dbs);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('When a file in any format mixes valid events, invalid events and text that is no record, then exactly the valid ones are stored, in order, and every other line is reported once at its line', async () => {
    const direct = new DirectSink(dbs, 7 * 86_400_000, 'testlog1');
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 40 }), fc.constantFrom<FileFormat>('ndjson', 'csv', 'json'), fc.integer({ min: 1, max: 9 }), async (items, format, chunkSize) => {
        const shopId = `prop-${++shops}`;
        // Small chunks, so that refusals and records cross chunk boundaries.
        const sink: ImportSink = { productsPerChunk: chunkSize, eventsPerChunk: chunkSize, products: (s, c) => direct.products(s, c), events: (s, c) => direct.events(s, c) };
        const { text, lines } = fileOf(items, format);
        const logged: string[] = [];
        const progress: Progress = { update: () => {}, log: (line) => logged.push(line), stop: () => {} };

        const summary = await importFile({ sink, shopId, kind: 'events', file: 'f', format, input: { stream: Readable.from([Buffer.from(text)]), bytesRead: () => 0, size: 1 }, progress });

        const valid = items.filter((i) => i.kind === 'valid');
        expect(summary.accepted).toBe(valid.length);
        expect(summary.rejected).toBe(items.length - valid.length);
        expect(logged.map((l) => Number(/^f:(\d+): /.exec(l)![1]))).toEqual(lines.filter((_, n) => items[n]!.kind !== 'valid'));
        expect(storedEvents(dbs, shopId).map((e) => e.event.productId)).toEqual(valid.map((i) => (i as { productId: string }).productId));
      }),
      { numRuns: 60 },
    );
  });
});
