import fc from 'fast-check';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabases, snapshotPartRange, type Databases } from '../../src/store/database.js';
import { CHUNK_BYTES, copyParts, joinParts, SLICE_BYTES, splitParts, SPLIT_BYTES, SPLIT_STRINGS } from '../../src/store/snapshot-parts.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { tempDataDir } from '../support/service.js';

const opened: { dir: string; dbs: Databases; store: SnapshotStore }[] = [];

function open(keepBufferBytes = Infinity): { dbs: Databases; store: SnapshotStore } {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  const store = new SnapshotStore(dbs, { keepBufferBytes });
  opened.push({ dir, dbs, store });
  return { dbs, store };
}

afterEach(async () => {
  for (const { dir, dbs, store } of opened.splice(0)) {
    await store.close();
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Byte arrays of any size, some of them views into a larger buffer (as the models' snapshots are). */
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.integer({ min: SPLIT_BYTES - 2, max: 3 * SPLIT_BYTES }).map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 31) & 255)),
  fc.tuple(fc.nat(100), fc.integer({ min: 0, max: 2 * SPLIT_BYTES })).map(([offset, n]) => {
    const buffer = new Uint8Array(offset + n + 50).map((_, i) => (i * 7) & 255);
    return buffer.subarray(offset, offset + n);
  }),
);
/** Any UTF-16 code unit, lone surrogates included (ids are arbitrary strings). */
const anyString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 8 });
/** String lists around the split size, some long enough to take several encoding steps. */
const strings = fc.oneof(
  fc.array(anyString, { minLength: SPLIT_STRINGS - 2, maxLength: SPLIT_STRINGS + 2 }),
  fc.integer({ min: 8000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `c:${i}\n"é\u{1F600}`)),
);
const state = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, bytes, strings, anyString, fc.integer(), fc.constant(null), tie('list'), tie('record')),
  list: fc.array(tie('node'), { maxLength: 4 }),
  record: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== '$part' && k !== '$strings'), tie('node'), { maxKeys: 4 }),
})).record;

const plain = (value: unknown): unknown =>
  value instanceof Uint8Array ? { bytes: Array.from(value) } : Array.isArray(value) ? value.map(plain) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : value;

describe('snapshot parts', () => {
  test('When a state is split into a header and parts, copied and joined again, then it is the same state and only large byte arrays and string lists became parts', async () => {
    await fc.assert(
      fc.asyncProperty(state, async (value) => {
        const { header, parts } = splitParts(value);
        expect(parts.every((part) => (part instanceof Uint8Array ? part.byteLength >= SPLIT_BYTES : part.length >= SPLIT_STRINGS))).toBe(true);
        const large = (v: unknown) => (v instanceof Uint8Array && v.byteLength >= SPLIT_BYTES) || (Array.isArray(v) && v.length >= SPLIT_STRINGS && v.every((s) => typeof s === 'string'));
        expect(JSON.stringify(header, (_, v: unknown) => (large(v) ? 'LARGE' : v))).not.toContain('LARGE');
        const copies = await copyParts(parts, async () => {});
        expect(plain(joinParts(header, (i) => copies[i]))).toEqual(plain(value));
      }),
      { numRuns: 60 },
    );
  });

  test('When parts are copied in slices, then each copy equals its part, no slice is larger than asked, and the thread is given back between slices', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(bytes, { maxLength: 6 }), fc.integer({ min: 1, max: 2 * SPLIT_BYTES }), async (parts, sliceBytes) => {
        let pauses = 0;
        const copies = await copyParts(parts, async () => void pauses++, sliceBytes, undefined, Infinity); // no time bound: bytes alone
        expect(copies.map(plain)).toEqual(parts.map(plain));
        copies.forEach((copy, i) => expect(copy.buffer).not.toBe(parts[i]!.buffer));
        const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
        expect(pauses).toBe(Math.max(0, Math.ceil(total / sliceBytes) - 1));
      }),
    );
  });

  test('When a copy takes longer than its time per slice, then the thread is given back after each chunk, and the copies are still exact', async () => {
    const parts = [1, 2.5, 0.25].map((chunks, p) => Uint8Array.from({ length: chunks * CHUNK_BYTES }, (_, i) => (i * 31 + p) & 255));
    let pauses = 0;
    const copies = await copyParts(parts, async () => void pauses++, SLICE_BYTES, undefined, 0); // every chunk over time
    expect(copies.map(plain)).toEqual(parts.map(plain));
    expect(pauses).toBe(1 + 3 + 1 - 1); // chunks: 1, 3 (the last one half), 1; a pause between each two
  });

  test('When a long string list is copied, then it is encoded a step at a time with the thread given back between steps', async () => {
    const list = Array.from({ length: 20_000 }, (_, i) => `s:${i}`);
    let pauses = 0;
    const [copy] = await copyParts([list], async () => void pauses++, 1);
    expect(pauses).toBe(2); // three steps of at most 8,192 strings
    expect(joinParts({ $strings: 0 }, () => copy)).toEqual(list);
  });

  test('When a long list of strings holds nulls, then it is a string part and reads back with its nulls; when it holds anything else, then the copy fails and says where', async () => {
    const withNulls = Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? null : `k:${i}`));
    const split = splitParts({ customers: withNulls });
    expect(split.parts).toHaveLength(1);
    const copies = await copyParts(split.parts, async () => {});
    expect(joinParts(split.header, (i) => copies[i])).toEqual({ customers: withNulls });
    const mixed: unknown[] = Array.from({ length: 3000 }, (_, i) => `k:${i}`);
    mixed[2500] = 42;
    const bad = splitParts({ ids: mixed });
    await expect(copyParts(bad.parts, async () => {})).rejects.toThrow(/holds a number at 2500/);
  });

  test('When a part is missing, then joining fails instead of returning a state with a hole', () => {
    const { header } = splitParts({ a: new Uint8Array(SPLIT_BYTES) });
    expect(() => joinParts(header, () => undefined)).toThrow(/part 0 is missing/);
  });
});

describe('SnapshotStore', () => {
  test('When a snapshot replaces a larger one, then it reads back exactly and no part of the old one is left', async () => {
    const { dbs, store } = open();
    const big = { position: 1, takenAt: 1, state: { parts: Array.from({ length: 5 }, (_, i) => new Uint8Array(SPLIT_BYTES * 2).fill(i + 1)) } };
    await store.put('shop', big as never);
    const small = { position: 2, takenAt: 2, state: { parts: [new Uint8Array(SPLIT_BYTES * 3).fill(9)], ids: ['a', 'b'], inline: new Uint8Array([1, 2]) } };
    await store.put('shop', small as never);
    expect(plain(store.get('shop'))).toEqual(plain(small));
    expect(Array.from(dbs.snapshotParts.getKeys(snapshotPartRange('shop')))).toEqual([['shop', 0]]);
  });

  test('When the bytes change once the copy is made, then the stored snapshot holds them as they were copied', async () => {
    const { store } = open();
    const live = new Uint8Array(SPLIT_BYTES * 4).fill(1);
    const small = new Uint8Array([1, 1]);
    const copy = await store.copy({ position: 1, takenAt: 1, state: { live, small } } as never, SPLIT_BYTES);
    live.fill(2);
    small.fill(2);
    await store.write('shop', copy);
    const stored = store.get('shop')!.state as unknown as { live: Uint8Array; small: Uint8Array };
    expect(stored.live.every((b) => b === 1)).toBe(true);
    expect(Array.from(stored.small)).toEqual([1, 1]);
  });

  test('When snapshots follow each other, then each is copied into the memory the last one used and reads back as it was taken', async () => {
    const { store } = open();
    const live = Array.from({ length: 3 }, () => new Uint8Array(SPLIT_BYTES * 2));
    let arenaBytes = 0;
    for (let round = 1; round <= 4; round++) {
      live.forEach((part, index) => part.fill(round * 10 + index));
      await store.put('shop', { position: round, takenAt: round, state: { live } } as never);
      if (round === 1) arenaBytes = store.arenaBytes;
      expect(store.arenaBytes).toBe(arenaBytes); // kept, not replaced
      const stored = store.get('shop')!.state as unknown as { live: Uint8Array[] };
      stored.live.forEach((part, index) => expect(part.every((byte) => byte === round * 10 + index)).toBe(true));
    }
    expect(arenaBytes).toBeGreaterThanOrEqual(3 * SPLIT_BYTES * 2);
  });

  test('When a second copy is taken while the first is still unwritten, then it gets its own buffers and both are stored as copied', async () => {
    const { store } = open();
    const live = new Uint8Array(SPLIT_BYTES * 2).fill(1);
    const first = await store.copy({ position: 1, takenAt: 1, state: { live } } as never);
    live.fill(2);
    const second = await store.copy({ position: 2, takenAt: 2, state: { live } } as never);
    expect(second.parts[0]!.buffer).not.toBe(first.parts[0]!.buffer);
    live.fill(3);
    await store.write('a', first);
    await store.write('b', second);
    const read = (shopId: string) => (store.get(shopId)!.state as unknown as { live: Uint8Array }).live;
    expect(read('a').every((byte) => byte === 1)).toBe(true);
    expect(read('b').every((byte) => byte === 2)).toBe(true);
    // The arena is free again: the next copy lands in it.
    const third = await store.copy({ position: 3, takenAt: 3, state: { live } } as never);
    expect(third.parts[0]!.buffer).toBe(first.parts[0]!.buffer);
    third.release!();
  });

  test('When the snapshot is larger than the buffer that may be kept, then every copy gets fresh ones and nothing is held between snapshots', async () => {
    const { store } = open(SPLIT_BYTES);
    const live = new Uint8Array(SPLIT_BYTES * 2).fill(4);
    const first = await store.copy({ position: 1, takenAt: 1, state: { live } } as never);
    await store.write('shop', first);
    const second = await store.copy({ position: 2, takenAt: 2, state: { live } } as never);
    expect(second.parts[0]!.buffer).toBeInstanceOf(ArrayBuffer);
    expect(second.release).toBeUndefined();
    expect(store.arenaBytes).toBe(0);
    await store.write('shop', second);
    expect((store.get('shop')!.state as unknown as { live: Uint8Array }).live.every((byte) => byte === 4)).toBe(true);
  });

  test("When a snapshot's parts are gone, then there is no snapshot (the restart replays the whole log)", async () => {
    const { dbs, store } = open();
    await store.put('shop', { position: 1, takenAt: 1, state: { a: new Uint8Array(SPLIT_BYTES) } } as never);
    await dbs.snapshotParts.remove(['shop', 0]);
    expect(store.get('shop')).toBeUndefined();
  });

  test('When a snapshot predates log positions (it names a lastEventId), then there is no snapshot (the restart replays the whole log)', async () => {
    const { store } = open();
    await store.put('shop', { lastEventId: 'evt_01', takenAt: 1, state: { a: new Uint8Array(SPLIT_BYTES) } } as never);
    expect(store.get('shop')).toBeUndefined();
  });

  test('When the store is closed, then writes in flight finish first and later ones are refused', async () => {
    const { store } = open();
    const writing = store.put('shop', { position: 1, takenAt: 1, state: {} } as never);
    await store.close();
    await expect(writing).resolves.toBeUndefined();
    await expect(store.put('shop', { position: 2, takenAt: 2, state: {} } as never)).rejects.toThrow(/closed/);
  });
});
