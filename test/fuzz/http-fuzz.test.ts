// Fuzzes every HTTP route of the real service (in-process, port 0, demo store and BASE_PATH on) with
// random and mutated requests: no 5xx, every error a problem+json with a catalogue code and its
// status, no request left hanging, the process healthy after each batch, and every event it
// acknowledged stored and applied. The seed is logged; FUZZ_SEED=<n> replays a run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi, type MockInstance } from 'vitest';
import { createDemoStorefront } from '../../src/demo/demo-storefront.js';
import { defaultDemoDir } from '../../src/demo/demo-files.js';
import { DEMO_SHOP } from '../../src/demo/seed-demo-store.js';
import { storedEvents } from '../support/stored-events.js';
import { header, rawRequest, type RawOutcome } from '../support/raw-http.js';
import { customerToken, newShop, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { expectContractAnswer } from './catalogue-checks.js';
import { FUZZ_SEED, fuzzParams, logSeed, Tally } from './fuzz-run.js';
import { brokenBytes, framingBreak } from './http-framing.js';
import { anyRequest, BASE_PATH, describeRequest, isAsyncRoute, requestBytes, STABLE_PRODUCTS, TOKEN_CUSTOMERS, type FuzzRequest, type Placeholders } from './http-requests.js';

const FILE = 'test/fuzz/http-fuzz.test.ts';
logSeed(FILE);

/** A well-framed request unanswered this long is a hang (generous: the box is shared and slow). */
const ANSWER_MS = 10_000;
/** A broken one may go unanswered (uWS drops or waits on it): how long to give it. */
const BROKEN_WAIT_MS = 150;

describe(`HTTP fuzz (FUZZ_SEED=${FUZZ_SEED})`, () => {
  const shop = newShop('fuzz-shop');
  let t: TestService;
  let placeholders: Placeholders;
  let consoleErrors: MockInstance<typeof console.error>;
  /** eventIds of every event acknowledged as newly stored, whichever shop took it. */
  const acked = new Set<string>();
  const stored = (shopId: string) => new Map(storedEvents(t.service.dbs, shopId).map((e) => [e.eventId, e.event]));
  const applied = (shopId: string) => t.service.engines.get(shopId).eventCount;
  let before: { storedCount: number; applied: number }[];

  beforeAll(async () => {
    t = await startTestService({ shop, env: { PAIRWISE_DEMO: '1', BASE_PATH } });
    await putProducts(t, STABLE_PRODUCTS.map((id) => wireProduct(id, { collections: ['c1'] })));
    const demoKeys = t.service.demoKeys!;
    const [sample] = createDemoStorefront({ demoDir: defaultDemoDir(), publicKey: demoKeys.publicKey, customerToken: () => '', catalog: () => { throw new Error('not read'); } }).shoppers();
    placeholders = {
      values: {
        pk: shop.publicKey,
        sk: shop.secretKey,
        'demo-pk': demoKeys.publicKey,
        'demo-sk': demoKeys.secretKey,
        shopper: sample!.customerId,
        ...Object.fromEntries(TOKEN_CUSTOMERS.map((c) => [`token:${c}`, customerToken(shop, c)])),
      },
    };
    before = [shop.shopId, DEMO_SHOP].map((id) => ({ storedCount: stored(id).size, applied: applied(id) }));
    consoleErrors = vi.spyOn(console, 'error');
  }, 60_000);
  afterAll(async () => {
    consoleErrors?.mockRestore();
    await t?.cleanup();
  });

  const answers = new Tally();

  /** Notes the events an answer acknowledged as newly stored, and what was answered. */
  function noteAnswers(request: FuzzRequest, outcome: RawOutcome): void {
    if (outcome.responses.length === 0) answers.add(outcome.closed ? 'closed unanswered' : 'unanswered');
    for (const response of outcome.responses) {
      const code = /"code":"([a-z_]+)"/.exec(response.body.toString('utf8'))?.[1];
      answers.add(`${response.status}${code === undefined ? '' : ' ' + code}`);
      if (response.status !== 200 || request.method !== 'POST' || !/\/api\/events/.test(request.target)) continue;
      const body = JSON.parse(response.body.toString('utf8')) as { eventId?: string; duplicate?: boolean; results?: { success: boolean; eventId?: string; duplicate?: boolean }[] };
      if (body.eventId !== undefined && !body.duplicate) acked.add(body.eventId);
      for (const result of body.results ?? []) if (result.success && !result.duplicate) acked.add(result.eventId!);
    }
  }

  async function expectHealthy(): Promise<void> {
    const health = await rawRequest(t.service.port, 'GET /healthz HTTP/1.1\r\nHost: fuzz.test\r\n\r\n', { waitMs: ANSWER_MS });
    expect(health.response?.status, `GET /healthz after the batch: ${health.text}`).toBe(200);
    expect(consoleErrors.mock.calls, 'the server logged an unexpected error').toEqual([]);
  }

  test('When every route gets random and mutated requests (bodies, headers, query strings, paths, methods), then none gets a 5xx or hangs, every error is a catalogue problem, and the server stays healthy', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRequest, { minLength: 1, maxLength: 3 }), async (requests) => {
        consoleErrors.mockClear();
        // Sent together: the requests of a batch interleave on the server as real traffic does.
        const outcomes = await Promise.all(
          requests.map((request) => rawRequest(t.service.port, requestBytes(request, placeholders), { waitMs: ANSWER_MS, heads: [request.method === 'HEAD'] })),
        );
        outcomes.forEach((outcome, i) => {
          const request = requests[i]!;
          const what = describeRequest(request);
          expect(outcome.response, `no answer within ${ANSWER_MS} ms (closed: ${outcome.closed}): ${what}\n${outcome.text.slice(0, 300)}`).toBeDefined();
          expectContractAnswer(outcome.response!, what, request.method === 'HEAD');
          noteAnswers(request, outcome);
        });
        await expectHealthy();
      }),
      fuzzParams(600),
    );
  }, 240_000);

  test('When a request’s framing is broken (Content-Length, chunked bodies, line endings, header bytes, request line, cut short), then any answer is a catalogue problem or a success and the server stays healthy', async () => {
    await fc.assert(
      fc.asyncProperty(anyRequest, framingBreak, async (request, broken) => {
        consoleErrors.mockClear();
        const head = (broken.kind === 'method' ? broken.value : request.method) === 'HEAD';
        const outcome = await rawRequest(t.service.port, brokenBytes(request, broken, placeholders), { waitMs: BROKEN_WAIT_MS, heads: [head, false, false], lingerMs: 20 });
        const what = `${JSON.stringify(broken)} ${describeRequest(request)}`;
        outcome.responses.forEach((response, i) => expectContractAnswer(response, what, i === 0 && head));
        noteAnswers(request, outcome);
        await expectHealthy();
      }),
      fuzzParams(80),
    );
  }, 240_000);

  test('When requests are pipelined on one connection, then each is answered in order with a well-formed answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRequest, { minLength: 2, maxLength: 4 }), async (requests) => {
        consoleErrors.mockClear();
        const bytes = Buffer.concat(requests.map((request) => requestBytes(request, placeholders)));
        const heads = requests.map((request) => request.method === 'HEAD');
        const outcome = await rawRequest(t.service.port, bytes, { waitMs: ANSWER_MS, heads });
        const what = requests.map(describeRequest).join('\n  ');
        const shown = `(closed: ${outcome.closed}, timed out: ${outcome.timedOut}, extra: ${JSON.stringify(outcome.extra.toString('latin1').slice(0, 200))}):\n  ${what}`;
        expect(outcome.timedOut, `pipelined requests left unanswered on an open connection ${shown}`).toBe(false);
        const answered = outcome.responses.length;
        if (answered < requests.length) {
          // uWS closes a connection on which a request arrives while one before it is still being
          // answered (an async route: body read, commit), dropping the answers it had not yet
          // flushed from that read; a request or answer saying Connection: close ends it too.
          const last = answered - 1;
          const closing = last >= 0 && (header(outcome.responses[last]!, 'connection') === 'close' || requests[last]!.headers.some(([n, v]) => /^connection$/i.test(n) && /^close$/i.test(v)));
          const pipelinedPastAsync = requests.slice(answered, -1).some(isAsyncRoute);
          expect(outcome.closed && (closing || pipelinedPastAsync), `${answered} answers to ${requests.length} pipelined requests ${shown}`).toBe(true);
        }
        outcome.responses.forEach((response, i) => {
          expectContractAnswer(response, describeRequest(requests[i]!), heads[i]);
          noteAnswers(requests[i]!, { ...outcome, responses: [response] });
        });
        await expectHealthy();
      }),
      fuzzParams(60),
    );
  }, 240_000);

  test('When the fuzzing is over, then no request is still in flight and every acknowledged event is stored and applied', async () => {
    await expect.poll(() => t.service.http.lifecycle.inFlight, { timeout: 5_000 }).toBe(0);
    const shops = [shop.shopId, DEMO_SHOP].map((id, i) => ({ id, events: stored(id), before: before[i]! }));
    const lost = [...acked].filter((eventId) => !shops.some((s) => s.events.has(eventId)));
    expect(lost, 'acknowledged events missing from LMDB').toEqual([]);
    for (const s of shops) {
      // Stored may exceed acknowledged (an answer the fuzzer gave up waiting for), never fall short of it.
      expect(applied(s.id) - s.before.applied, `events applied to ${s.id}`).toBe(s.events.size - s.before.storedCount);
    }
    // Spot check: a session with one acknowledged view of a product on offer is answered with it.
    // (A request whose method was mutated may have deleted a stable product: only those still on offer count.)
    const onOffer = new Set<string>();
    for (const id of STABLE_PRODUCTS) {
      const res = await t.fetch(`/api/products/${id}`, { key: shop.secretKey });
      if (res.status === 200 && ((await res.json()) as { available: boolean }).available) onOffer.add(id);
    }
    const bySession = new Map<string, { productId: string; type: string }[]>();
    for (const event of shops[0]!.events.values()) bySession.set(event.sessionId, [...(bySession.get(event.sessionId) ?? []), event]);
    const singles = [...bySession].filter(([id, events]) => id.startsWith('solo-') && events.length === 1 && ['view', 'click'].includes(events[0]!.type) && onOffer.has(events[0]!.productId));
    for (const [sessionId, [event]] of singles.slice(0, 10)) {
      const res = await t.fetch(`/api/recommendations?strategy=recently-viewed&limit=24&sessionId=${encodeURIComponent(sessionId)}`);
      const body = (await res.json()) as { products: { id: string; strategy: string }[] };
      expect(body.products.filter((p) => p.strategy === 'recently-viewed').map((p) => p.id), `recently viewed of ${sessionId} after ${JSON.stringify(event)}: ${JSON.stringify(body)}`).toContain(`gid://shopify/Product/${event!.productId}`);
    }
    console.log(`[fuzz] ${acked.size} events acknowledged; ${singles.length} single-view sessions, ${Math.min(10, singles.length)} spot-checked; answers: ${answers}`);
  });

  test('When the service restarts on the fuzzed data, then it replays every stored event', async () => {
    const counts = [shop.shopId, DEMO_SHOP].map((id) => stored(id).size);
    await t.stop();

    t = await startTestService({ shop, dataDir: t.dataDir, env: { PAIRWISE_DEMO: '1', BASE_PATH } });

    expect([shop.shopId, DEMO_SHOP].map(applied), 'events applied after the restart').toEqual(counts);
    expect((await t.fetch('/healthz')).status).toBe(200);
  }, 60_000);
});
