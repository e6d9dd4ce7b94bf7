// Fuzzes GET /api/stream of the real service (in-process, port 0): random and mutated frames over a
// `ws` client, random upgrade requests and hand-made frames over a bare socket. Every reply is a
// protocol message, every error carries a catalogue code, each message with a ref is answered once,
// the socket closes only with the documented codes, and the server stays healthy with every
// acknowledged event stored. The seed is logged; FUZZ_SEED=<n> replays a run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi, type MockInstance } from 'vitest';
import { pack, Unpackr } from 'msgpackr';
import { AppError } from '../../src/errors.js';
import { storedEvents } from '../support/stored-events.js';
import { decodeFrame } from '../../src/ws/codec.js';
import { parseClientMessage, refOf } from '../../src/ws/protocol.js';
import { header, rawRequest } from '../support/raw-http.js';
import { encodeFrame, RawStream, websocketAccept, type RawFrame, type ServerFrame } from '../support/raw-websocket.js';
import { customerToken, newShop, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient, type Message } from '../ws/stream-client.js';
import { expectContractAnswer, expectContractError } from './catalogue-checks.js';
import { FUZZ_SEED, fuzzParams, logSeed, Tally } from './fuzz-run.js';
import { STABLE_PRODUCTS, TOKEN_CUSTOMERS, type Placeholders } from './http-requests.js';
import { nastyString } from './mutations.js';
import { expectedClose, frameOf, frameSpec, messageSample, type Frame } from './ws-frames.js';

const FILE = 'test/fuzz/ws-fuzz.test.ts';
logSeed(FILE);

/** A reply (or close) later than this is a hang (generous: the box is shared and slow). */
const REPLY_MS = 10_000;
const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
/** Close codes the server sends (docs/api.md "Close codes"): shutdown, policy violation, message too big. */
const DOCUMENTED_CLOSE_CODES = new Set([1001, 1008, 1009]);

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
/** A fixed mask, so a run's bytes are the same each time it is replayed. */
const BARRIER_MASK = Uint8Array.of(0x5a, 0x17, 0xc3, 0x08);

/** Key of a ref for counting replies: JSON and msgpack refs of the same value count together. */
const refKey = (ref: unknown): string => `${typeof ref}:${String(ref)}`;

describe(`WebSocket fuzz (FUZZ_SEED=${FUZZ_SEED})`, () => {
  const shop = newShop('fuzz-ws-shop');
  let t: TestService;
  let placeholders: Placeholders;
  let consoleErrors: MockInstance<typeof console.error>;
  const acked = new Set<string>();
  let run = 0;

  beforeAll(async () => {
    t = await startTestService({ shop });
    await putProducts(t, STABLE_PRODUCTS.map((id) => wireProduct(id, { collections: ['c1'] })));
    placeholders = {
      values: { pk: shop.publicKey, sk: shop.secretKey, ...Object.fromEntries(TOKEN_CUSTOMERS.map((c) => [`token:${c}`, customerToken(shop, c)])) },
    };
    consoleErrors = vi.spyOn(console, 'error');
  }, 60_000);
  afterAll(async () => {
    consoleErrors?.mockRestore();
    await t?.cleanup();
  });

  async function expectHealthy(): Promise<void> {
    const health = await rawRequest(t.service.port, 'GET /healthz HTTP/1.1\r\nHost: fuzz.test\r\n\r\n', { waitMs: REPLY_MS });
    expect(health.response?.status, `GET /healthz after the run: ${health.text}`).toBe(200);
    expect(consoleErrors.mock.calls, 'the server logged an unexpected error').toEqual([]);
  }

  const answers = new Tally();

  /** Asserts one server message is a protocol message, and notes the events it acknowledged. */
  function expectProtocolMessage(message: Message, what: string): void {
    const shown = `${what}: ${JSON.stringify(message).slice(0, 400)}`;
    answers.add(message.op === 'error' ? `error ${message.error?.code}` : String(message.op));
    switch (message.op) {
      case 'pong':
        return;
      case 'error':
        expectContractError(message.error, shown);
        return;
      case 'ack':
        expect(message.eventId, shown).toMatch(EVENT_ID);
        if (!message.duplicate) acked.add(message.eventId as string);
        return;
      case 'acks': {
        expect(message, shown).toMatchObject({ success: expect.any(Boolean), accepted: expect.any(Number), duplicates: expect.any(Number), rejected: expect.any(Number), results: expect.any(Array) });
        for (const result of message.results as Record<string, any>[]) {
          if (result.success) {
            expect(result.eventId, shown).toMatch(EVENT_ID);
            if (!result.duplicate) acked.add(result.eventId as string);
          } else expect(result.error, shown).toMatchObject({ code: expect.stringMatching(/^(invalid_event|invalid_customer_token)$/), pointer: expect.any(String), detail: expect.any(String) });
        }
        return;
      }
      case 'recommendations':
        expect(message, shown).toMatchObject({ sub: expect.any(String), products: expect.any(Array), meta: { strategy: expect.any(String), modelLevel: expect.any(Number), count: expect.any(Number) } });
        return;
      default:
        throw new Error(`not a protocol message: ${shown}`);
    }
  }

  /** What the server owes a frame: replies carrying its ref, if it has a usable one (at least `min`). */
  function owed(frame: Frame): { key: string; min: number } | undefined {
    const decoded = decodeFrame(frame.payload.buffer.slice(frame.payload.byteOffset, frame.payload.byteOffset + frame.payload.byteLength) as ArrayBuffer, frame.binary);
    if (decoded instanceof AppError) return undefined;
    const ref = refOf(decoded);
    if (ref === undefined) return undefined;
    const parsed = parseClientMessage(decoded);
    // A valid unsubscribe of a live subscription is answered with nothing.
    return { key: refKey(ref), min: !(parsed instanceof AppError) && parsed.op === 'unsubscribe' ? 0 : 1 };
  }

  type Auth = 'public key in the query' | 'public key in a header' | 'secret key in a header';
  const auths = fc.constantFrom<Auth>('public key in the query', 'public key in a header', 'secret key in a header');

  /** A connection, with what it owes and how it closed. A secret key (a merchant's server) is trusted with customerIds; a public one needs their tokens. */
  async function connection(auth: Auth) {
    const client =
      auth === 'public key in the query'
        ? await StreamClient.open(t.url, shop.publicKey)
        : await StreamClient.open(t.url, undefined, { headers: { authorization: `Bearer ${auth === 'secret key in a header' ? shop.secretKey : shop.publicKey}` } });
    const conn = {
      client,
      closedAs: undefined as { code: number; reason: string } | undefined,
      owedByRef: new Map<string, { min: number; max: number }>(),
      send(frame: Frame): void {
        const debt = owed(frame);
        if (debt !== undefined) {
          const sum = conn.owedByRef.get(debt.key) ?? { min: 0, max: 0 };
          conn.owedByRef.set(debt.key, { min: sum.min + debt.min, max: sum.max + 1 });
        }
        client.socket.send(frame.payload, { binary: frame.binary });
      },
    };
    void client.closed.then((close) => (conn.closedAs = close));
    return conn;
  }

  /** Waits for every event op's ack, then checks each reply and that each ref got its replies (or a documented close). */
  async function expectAnswered(conn: Awaited<ReturnType<typeof connection>>, what: string): Promise<void> {
    // Frames are handled in order: once this ping is answered, every event op sent before it is
    // counted in flight; once none is, each one's answer was written before the next pong.
    if (conn.closedAs === undefined) await conn.client.request({ op: 'ping', ref: `sent-${run}` }, REPLY_MS);
    await expect.poll(() => t.service.stream.stats().inFlight, { timeout: REPLY_MS }).toBe(0);
    if (conn.closedAs === undefined) await conn.client.request({ op: 'ping', ref: `final-${run}` }, REPLY_MS);
    for (const message of conn.client.received) expectProtocolMessage(message, what);
    if (conn.closedAs !== undefined) {
      expect(DOCUMENTED_CLOSE_CODES.has(conn.closedAs.code) || conn.closedAs.code === 1006, `closed with ${JSON.stringify(conn.closedAs)}: ${what}`).toBe(true);
      return;
    }
    // Live pushes carry no ref: every message with one answers a frame.
    const replies = new Map<string, number>();
    for (const message of conn.client.received) if (message.ref !== undefined) replies.set(refKey(message.ref), (replies.get(refKey(message.ref)) ?? 0) + 1);
    for (const [key, { min, max }] of conn.owedByRef) {
      const count = replies.get(key) ?? 0;
      const seen = conn.client.received.map((m) => `${m.op}:${m.ref ?? ''}${m.op === 'error' ? ':' + m.error?.code : ''}`).join(' ');
      expect(count >= min && count <= max, `${count} replies with ref ${key} (owed ${min}-${max}; received ${seen}): ${what}`).toBe(true);
    }
  }

  test('When a connection sends random and mutated frames (JSON and msgpack messages, random bytes, odd msgpack, frames around the cap), then every reply is a protocol message with catalogue error codes, each ref is answered once, and it closes only as documented', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frameSpec, { minLength: 1, maxLength: 6 }), auths, async (specs, auth) => {
        consoleErrors.mockClear();
        run++;
        const conn = await connection(auth);
        try {
          for (const [i, spec] of specs.entries()) {
            const frame = frameOf(spec, `fz-${run}-${i}`, placeholders);
            const what = `frame ${i} ${fc.stringify(spec).slice(0, 300)}`;
            conn.send(frame);
            const closing = expectedClose(frame);
            if (closing !== undefined) {
              answers.add(`close ${closing.code}`);
              const close = await Promise.race([conn.client.closed, new Promise<undefined>((resolve) => setTimeout(resolve, REPLY_MS))]);
              expect(close?.code, `${what}: ${closing.why}; closed with ${JSON.stringify(close)}`).toBe(closing.code);
              if (closing.code === 1009) expect(close!.reason).toMatch(/at most \d+ bytes/);
              break;
            }
            // A ping in the frame's encoding: it is answered after the frame was handled (event
            // acks may come later), and it shows the decoder still works after whatever came before.
            const barrier = `barrier-${run}-${i}`;
            conn.client.socket.send(frame.binary ? pack({ op: 'ping', ref: barrier }) : JSON.stringify({ op: 'ping', ref: barrier }), { binary: frame.binary });
            await conn.client.next((m) => m.ref === barrier && m.op === 'pong', REPLY_MS).catch((error: Error) => {
              throw new Error(`${what}: no pong to the barrier ping (closed: ${JSON.stringify(conn.closedAs)}): ${error.message}`);
            });
          }
          await expectAnswered(conn, `frames ${fc.stringify(specs).slice(0, 600)}`);
        } finally {
          conn.client.close();
        }
        await expectHealthy();
      }),
      fuzzParams(200),
    );
  }, 240_000);

  test('When a connection sends up to 100 frames at once (floods of event ops and subscriptions among mutated frames), then each ref is still answered once and the per-connection limits answer with catalogue codes', async () => {
    // Distinct valid subscriptions (past the 20 a connection may hold) and event ops (past the 32 that may await acks).
    const subscribe = fc.record({ op: fc.constant('subscribe'), ref: fc.constant('{{ref}}'), query: fc.record({ strategy: fc.constantFrom('trending', 'recently-viewed'), sessionId: fc.uuid(), limit: fc.integer({ min: 1, max: 24 }) }) });
    const message = (sample: Record<string, unknown>, binary: boolean) => ({ kind: 'message' as const, binary, sample, values: [], bytes: [] });
    const flood = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(messageSample.filter((m) => m.op === 'event' || m.op === 'events'), fc.boolean()).map(([sample, binary]) => message(sample, binary)) },
      { weight: 4, arbitrary: fc.tuple(subscribe, fc.boolean()).map(([sample, binary]) => message(sample, binary)) },
      { weight: 1, arbitrary: frameSpec },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(flood, { minLength: 30, maxLength: 100 }), auths, async (specs, auth) => {
        consoleErrors.mockClear();
        run++;
        const conn = await connection(auth);
        try {
          // Frames that close the socket are the other property's: here it must stay open.
          const frames = specs.map((spec, i) => frameOf(spec, `fz-${run}-${i}`, placeholders)).filter((frame) => expectedClose(frame) === undefined);
          for (const frame of frames) conn.send(frame);
          await expectAnswered(conn, `${frames.length} frames at once ${fc.stringify(specs).slice(0, 600)}`);
          expect(conn.closedAs, 'the flooded connection closed').toBeUndefined();
        } finally {
          conn.client.close();
        }
        await expectHealthy();
      }),
      fuzzParams(20),
    );
  }, 240_000);

  test('When the upgrade request is random or mutated (key in the query or a header, odd Origin, Sec-WebSocket-* values), then it is upgraded or refused with a catalogue problem', async () => {
    const keyRole = fc.constantFrom('{{pk}}', '{{sk}}', 'pk_unknown000000000000000000000000', '');
    const optional = (name: string, values: fc.Arbitrary<string>) => fc.option(values.map((v) => [name, v] as [string, string]), { nil: undefined, freq: 3 });
    const printable = nastyString.map((s) => s.slice(0, 200).replace(/[\x00-\x1f\x7f]/g, ' '));
    const upgrade = fc.record({
      query: fc.oneof(fc.constant(''), keyRole.map((k) => `?key=${k}`), fc.tuple(keyRole, keyRole).map(([a, b]) => `?key=${a}&key=${b}`), fc.constantFrom('?key=%', '?key=%E0%A4%A&x=1', '?customerToken={{token:c1}}&key={{pk}}')),
      headers: fc.tuple(
        optional('Authorization', fc.oneof(keyRole.map((k) => `Bearer ${k}`), printable)),
        optional('Origin', fc.oneof(fc.constantFrom('https://shop.example', 'null'), printable)),
        optional('Sec-WebSocket-Protocol', fc.oneof(fc.constantFrom('json', 'msgpack, json', ','), printable)),
        optional('Sec-WebSocket-Extensions', fc.oneof(fc.constantFrom('permessage-deflate', 'permessage-deflate; client_max_window_bits=99', 'x-unknown; y'), printable)),
        optional('Content-Length', fc.constantFrom('0', '5')),
      ),
      // Mostly a handshake uWS accepts, so the key, origin and query reach our upgrade handler.
      version: fc.oneof({ weight: 6, arbitrary: fc.constant('13') }, { weight: 1, arbitrary: fc.constantFrom('8', '', 'x') }),
      key: fc.oneof({ weight: 6, arbitrary: fc.constant('valid' as const) }, { weight: 1, arbitrary: fc.constantFrom('short' as const, 'empty' as const, 'missing' as const) }),
      upgradeHeader: fc.oneof({ weight: 6, arbitrary: fc.constant('websocket') }, { weight: 1, arbitrary: fc.constantFrom('WebSocket', 'h2c', 'missing') }),
    });
    await fc.assert(
      fc.asyncProperty(upgrade, async ({ query, headers, version, key, upgradeHeader }) => {
        consoleErrors.mockClear();
        const wsKey = { valid: 'dGhlIHNhbXBsZSBub25jZQ==', short: 'c2hvcnQ=', empty: '', missing: undefined }[key];
        const lines = [`GET /api/stream${query} HTTP/1.1`, 'Host: fuzz.test', 'Connection: Upgrade'];
        if (upgradeHeader !== 'missing') lines.push(`Upgrade: ${upgradeHeader}`);
        if (wsKey !== undefined) lines.push(`Sec-WebSocket-Key: ${wsKey}`);
        lines.push(`Sec-WebSocket-Version: ${version}`);
        for (const h of headers) if (h !== undefined) lines.push(`${h[0]}: ${h[1]}`);
        const text = lines.map((line) => line.replace(/\{\{([a-z0-9:-]+)\}\}/g, (w, n: string) => placeholders.values[n] ?? w)).join('\r\n') + '\r\n\r\n';
        const outcome = await rawRequest(t.service.port, Buffer.from(text, 'utf8'), { waitMs: REPLY_MS });
        const what = text.slice(0, 600);
        expect(outcome.response, `no answer to the upgrade (closed: ${outcome.closed}):\n${what}`).toBeDefined();
        const response = outcome.response!;
        answers.add(`upgrade ${response.status}${/"code":"([a-z_]+)"/.exec(response.body.toString('utf8'))?.[1] ?? ''}`);
        if (response.status === 101) {
          expect(header(response, 'sec-websocket-accept'), what).toBe(websocketAccept(wsKey!));
        } else expectContractAnswer(response, what);
        await expectHealthy();
      }),
      fuzzParams(120),
    );
  }, 240_000);

  test('When hand-made frames break the WebSocket protocol (reserved bits, unknown opcodes, unmasked, lying lengths, broken fragments, odd control frames), then the server answers with protocol messages or closes, and stays healthy', async () => {
    const payload = fc.oneof(
      messageSample.map((sample) => Buffer.from(JSON.stringify({ ...sample, ref: 'raw' }).replace(/\{\{([a-z0-9:-]+)\}\}/g, (w, n: string) => placeholders.values[n] ?? w))),
      fc.uint8Array({ maxLength: 140 }).map((b) => Buffer.from(b)),
      fc.tuple(fc.integer({ min: 0, max: 65_535 }), fc.uint8Array({ maxLength: 20 })).map(([code, reason]) => Buffer.concat([Buffer.from([code >> 8, code & 0xff]), reason])),
    );
    const rawFrame: fc.Arbitrary<RawFrame> = fc.record({
      fin: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      rsv: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }) }),
      opcode: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0x1, 0x2) }, { weight: 2, arbitrary: fc.constantFrom(0x0, 0x8, 0x9, 0xa) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }) }),
      masked: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      // Drawn, not random: what follows a desynchronizing frame is read from these bytes too.
      mask: fc.uint8Array({ minLength: 4, maxLength: 4 }),
      payload,
      length: fc.oneof(
        { weight: 5, arbitrary: fc.constant('shortest' as const) },
        { weight: 1, arbitrary: fc.constantFrom('16-bit' as const, '64-bit' as const) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1, 125, 126, 65_536, 2 ** 31, 2 ** 53 - 1).map((claimed) => ({ claimed })) },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(rawFrame, { minLength: 1, maxLength: 4 }), async (frames) => {
        consoleErrors.mockClear();
        const stream = await RawStream.open(t.service.port, `/api/stream?key=${shop.publicKey}`);
        const what = JSON.stringify(frames.map((f) => ({ ...f, mask: f.mask && [...f.mask], payload: f.payload.toString('latin1').slice(0, 80) })));
        try {
          for (const frame of frames) stream.write(encodeFrame(frame));
          // Two well-formed pings after them: the second is answered if the connection survived what
          // came before. (uWS lets a data frame after a control frame finish a fragmented message
          // that frame did not continue, so the first ping may end up inside that message.)
          for (const ref of ['raw-barrier-1', 'raw-barrier-2']) {
            stream.write(encodeFrame({ fin: true, rsv: 0, opcode: 0x1, masked: true, mask: BARRIER_MASK, payload: Buffer.from(`{"op":"ping","ref":"${ref}"}`) }));
          }
          const isBarrier = (f: ServerFrame) => f.opcode === 0x1 && f.payload.toString('utf8').includes('"raw-barrier-2"');
          // A length that is not the payload's puts the server out of step with the bytes, and so
          // does an unmasked frame (uWS reads 4 mask bytes whatever the mask bit says): it may then
          // wait for bytes that never come, on a connection the client has to close. A short look then.
          const waiting = frames.some((f) => !f.masked || (typeof f.length === 'object' && f.length.claimed !== f.payload.length));
          const { timedOut } = await stream.waitFor((received) => received.some(isBarrier), waiting ? 200 : REPLY_MS);
          expect(!timedOut || waiting, `neither an answer nor a close within ${REPLY_MS} ms: ${what}`).toBe(true);
          answers.add(stream.closed ? 'raw: closed' : timedOut ? 'raw: left waiting' : 'raw: answered');
          for (const frame of stream.frames) {
            expect(frame.masked, `a masked server frame: ${what}`).toBe(false);
            if (frame.opcode === 0x1 || frame.opcode === 0x2) {
              const message = (frame.opcode === 0x2 ? unpackr.unpack(frame.payload) : JSON.parse(frame.payload.toString('utf8'))) as Message;
              expectProtocolMessage(message, what);
            } else if (frame.opcode === 0x8 && frame.payload.length >= 2) {
              const code = frame.payload.readUInt16BE(0);
              // The server's own close codes, or the close it echoes to the client's close frame.
              const echoed = frames.some((f) => f.opcode === 0x8);
              expect(DOCUMENTED_CLOSE_CODES.has(code) || echoed, `close code ${code}: ${what}`).toBe(true);
            } else expect([0x8, 0x9, 0xa], `server frame opcode ${frame.opcode}: ${what}`).toContain(frame.opcode);
          }
        } finally {
          stream.destroy();
        }
        await expectHealthy();
      }),
      fuzzParams(100),
    );
  }, 240_000);

  test('When the fuzzing is over, then no event op is in flight and every acknowledged event is stored and applied', async () => {
    await expect.poll(() => t.service.stream.stats().inFlight, { timeout: 5_000 }).toBe(0);
    const stored = new Set(storedEvents(t.service.dbs, shop.shopId).map((e) => e.eventId));
    expect([...acked].filter((id) => !stored.has(id)), 'acknowledged events missing from LMDB').toEqual([]);
    expect(t.service.engines.get(shop.shopId).eventCount, 'events applied').toBe(stored.size);
    console.log(`[fuzz] ${acked.size} events acknowledged over the stream, ${stored.size} stored; replies: ${answers}`);
  });

  test('When the service restarts on the fuzzed data, then it replays every stored event', async () => {
    const count = storedEvents(t.service.dbs, shop.shopId).length;
    await t.stop();

    t = await startTestService({ shop, dataDir: t.dataDir });

    expect(t.service.engines.get(shop.shopId).eventCount, 'events applied after the restart').toBe(count);
    const client = await StreamClient.open(t.url, shop.publicKey);
    expect(await client.request({ op: 'ping', ref: 'after-restart' })).toMatchObject({ op: 'pong', ref: 'after-restart' });
    client.close();
  }, 60_000);
});
