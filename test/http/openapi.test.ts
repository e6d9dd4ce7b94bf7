// GET /api/openapi.json: a valid OpenAPI 3.1 document, and exactly the routes the server answers:
// every documented operation is routed (with the access it documents), and every route the server
// registers is documented.
import type { OpenApiV3_1 } from '@samchon/openapi';
import { readFileSync } from 'node:fs';
import typia from 'typia';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { API_VERSION, openApiDocument } from '../../src/http/openapi/document.js';
import { ROUTES } from '../../src/http/route-table.js';
import { startTestService, testEnv, newShop, tempDataDir, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';
import { dashboardSession } from '../support/dashboard-session.js';

type Document = OpenApiV3_1.IDocument;

const BASE_PATH = '/apps/recs';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** A value for each path parameter the table uses: any value reaches the route (its handler may then 404). */
const PARAM_VALUES: Record<string, string> = { id: '1', file: '1.svg', handle: 'x' };

const documented = (doc: Document) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) => METHODS.filter((m) => item[m] !== undefined).map((method) => ({ method, path, op: item[method]! })));

/** Every value under `node` whose key is $ref. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refs(item, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refs(value, out);
    }
  }
  return out;
}

function resolve(doc: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), doc);
}

describe('the OpenAPI document', () => {
  const config = loadConfig(testEnv(tempDataDir(), newShop()));
  const doc = openApiDocument(ROUTES, config);

  test('When validated, then it is an OpenAPI 3.1 document whose every $ref resolves', () => {
    const validation = typia.validate<OpenApiV3_1.IDocument>(doc);
    expect(validation.success ? [] : validation.errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
    const unresolved = refs(doc).filter((pointer) => resolve(doc, pointer) === undefined);
    expect(unresolved).toEqual([]);
    // The version is the package's.
    expect(API_VERSION).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  test('When each operation is read, then it has responses, unique ids, declared tags, security schemes and path parameters', () => {
    const schemes = Object.keys(doc.components?.securitySchemes ?? {});
    const tags = (doc.tags ?? []).map((t) => t.name);
    const ids = new Set<string>();
    for (const { method, path, op } of documented(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(op.responses ?? {});
      // The demo's catch-all exists to answer its 404 page; every other operation has a success answer.
      const catchAll = path === '/demo/{rest}';
      expect(statuses.some((s) => (catchAll ? s === '404' : /^[123]\d\d$/.test(s))), `${where} has its answer`).toBe(true);
      for (const status of statuses) expect(status, where).toMatch(/^[1-5]\d\d$/);
      for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) expect(schemes, where).toContain(name);
      for (const tag of op.tags ?? []) expect(tags, where).toContain(tag);
      if (op.operationId !== undefined) {
        expect(ids.has(op.operationId), `${where}: operationId ${op.operationId} is unique`).toBe(false);
        ids.add(op.operationId);
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name).sort();
      const declared = (op.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'path' ? [p.name] : [])).sort();
      expect(declared, where).toEqual(templated);
      // A 401 documents the Bearer challenge exactly where an API key is taken (a dashboard session's 401 has none).
      const unauthorized = op.responses?.['401'];
      if (unauthorized !== undefined) {
        const bearer = (op.security ?? []).some((requirement) => 'publicKey' in requirement || 'secretKey' in requirement);
        expect('headers' in unauthorized && unauthorized.headers !== undefined && 'WWW-Authenticate' in unauthorized.headers, `${where} 401 challenge`).toBe(bearer);
      }
      // Every error answer is problem+json (but the demo catch-all's page, which is its answer).
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) >= 400 && !catchAll) expect(Object.keys(('content' in response ? response.content : undefined) ?? {}), `${where} ${status}`).toEqual(['application/problem+json']);
      }
    }
  });
});
  });
});

describe('GET /api/openapi.json against the server (demo store and BASE_PATH on)', () => {
  let t: TestService;
  let doc: Document;
  beforeAll(async () => {
    t = await startTestService({ env: { PAIRWISE_DEMO: '1', BASE_PATH } });
    doc = openApiDocument(ROUTES, t.service.config);
  }, 60_000);
  afterAll(() => t?.cleanup());

  test('When fetched without a key, then 200 with a public cache header and the document', async () => {
    for (const prefix of ['', BASE_PATH]) {
      const res = await t.fetch(`${prefix}/api/openapi.json`, { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
    }
  });

  test('When every documented operation is requested, then the server routes it and asks for the key it documents', async () => {
    for (const { method, path, op } of documented(doc)) {
      const target = path.replace(/\{([^}]+)\}/g, (_, name: string) => PARAM_VALUES[name] ?? 'x');
      for (const prefix of path.startsWith('/api/') ? ['', BASE_PATH] : ['']) {
        const where = `${method.toUpperCase()} ${prefix}${target}`;
        if ('x-pairwise-websocket' in op) {
          // The upgrade is the operation: refused without a key, open with the public one.
          expect((await StreamClient.refusal(t.url + prefix, undefined)).status, `${where} without a key`).toBe(401);
          const client = await StreamClient.open(t.url + prefix, t.shop.publicKey);
          client.socket.close();
          await client.closed;
          continue;
        }
        const res = await t.fetch(prefix + target, { method: method.toUpperCase(), key: null, redirect: 'manual' });
        const body = await res.text();
        expect(body, `${where} is routed`).not.toMatch(/"detail":"no route for/);
        expect(res.status, `${where}: ${body}`).not.toBe(405);
        const secured = (op.security ?? []).length > 0;
        if (secured) expect(res.status, `${where} without a key: ${body}`).toBe(401);
        else expect(res.status, `${where} without a key: ${body}`).not.toBe(401);
        const secretOnly = secured && op.security!.every((requirement) => 'secretKey' in requirement);
        if (secretOnly) {
          const withPublicKey = await t.fetch(prefix + target, { method: method.toUpperCase(), key: t.shop.publicKey });
          expect(withPublicKey.status, `${where} with a public key`).toBe(403);
        }
      }
    }
  });

  test('When the routes the server registered are listed, then each is documented, and each documented operation is registered', () => {
    // HEAD is registered beside each GET and answers as it does: the document lists the GET.
    const uwsMethods: Record<string, string> = { get: 'get', head: 'get', post: 'post', put: 'put', del: 'delete', options: 'options', ws: 'get' };
    const registered = new Set<string>();
    const anyPaths = new Set<string>();
    for (const { method, pattern } of t.service.http.routes) {
      if (pattern === '/*') continue; // the not-found answer
      const unprefixed = pattern.startsWith(`${BASE_PATH}/api/`) ? pattern.slice(BASE_PATH.length) : pattern;
      // The table's wildcard routes document their catch-all segment as {rest}.
      const path = unprefixed.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, '/{rest}');
      if (method === 'any') anyPaths.add(path); // 405 (426 for the WebSocket) for a known path's other methods
      else {
        expect(uwsMethods[method], `registered ${method} ${pattern}`).toBeDefined();
        registered.add(`${uwsMethods[method]} ${path}`);
      }
    }
    const documentedSet = new Set(documented(doc).map(({ method, path }) => `${method} ${path}`));
    expect([...registered].sort()).toEqual([...documentedSet].sort());
    const documentedPaths = Object.keys(doc.paths ?? {}).sort();
    expect([...anyPaths].sort()).toEqual(documentedPaths);
  });
});

describe('body caps under a configuration other than the default', () => {
  /** Below the defaults (64 KiB, 512 KiB, 8 MiB): what the document says and what is refused must both follow. */
  const CAPS = { maxEventBodyBytes: 2000, maxBatchBodyBytes: 3000, maxCatalogBodyBytes: 5000 };
  let t: TestService;
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    t = await startTestService({ config: CAPS, env: { PAIRWISE_DEMO: '1' } });
    ({ cookie, csrf } = await dashboardSession(t.url, t.shop.secretKey));
  }, 60_000);
  afterAll(() => t?.cleanup());

  /** A request to the operation with `bytes` of body, as its access requires it to be made. */
  function send(method: string, path: string, op: OpenApiV3_1.IOperation, bytes: number): Promise<Response> {
    const target = path.replace(/\{([^}]+)\}/g, (_, name: string) => PARAM_VALUES[name] ?? 'x');
    const form = 'application/x-www-form-urlencoded' in (('content' in (op.requestBody ?? {}) ? (op.requestBody as { content: object }).content : {}) ?? {});
    const headers: Record<string, string> = { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', origin: t.url, cookie, 'x-csrf-token': csrf };
    const security = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
    if (security.includes('secretKey')) {
      headers.authorization = `Bearer ${security.includes('publicKey') ? t.shop.publicKey : t.shop.secretKey}`;
      if (!security.includes('publicKey')) delete headers.origin; // a secret key is refused from a browser
    }
    // Spaces: the cap counts bytes, whatever they hold (at the cap the answer is anything but 413).
    return fetch(t.url + target, { method: method.toUpperCase(), headers, body: ' '.repeat(bytes), redirect: 'manual' });
  }

  test('When the served document is read, then each configured cap is the one it states', async () => {
    const doc = (await (await t.fetch('/api/openapi.json', { key: null })).json()) as Document;
    const cap = (path: string) => (doc.paths?.[path]?.post as Record<string, unknown> | undefined)?.['x-pairwise-max-body-bytes'] ?? (doc.paths?.[path]?.put as Record<string, unknown>)['x-pairwise-max-body-bytes'];
    expect({ events: cap('/api/events'), batch: cap('/api/events/batch'), catalog: cap('/api/products') }).toEqual({ events: 2000, batch: 3000, catalog: 5000 });
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument(ROUTES, t.service.config))));
  });

  test('When every operation with a body is sent one byte past the cap its document states, then 413; at the cap, the size passes', async () => {
    const doc = (await (await t.fetch('/api/openapi.json', { key: null })).json()) as Document;
    // Signing out ends the session the others use: last.
    const withBodies = documented(doc).filter(({ op }) => 'x-pairwise-max-body-bytes' in op).sort((a, b) => Number(a.path === '/dashboard/sign-out') - Number(b.path === '/dashboard/sign-out'));
    expect(withBodies.length).toBeGreaterThanOrEqual(13);
    for (const { method, path, op } of withBodies) {
      const cap = (op as Record<string, unknown>)['x-pairwise-max-body-bytes'] as number;
      const where = `${method.toUpperCase()} ${path} (cap ${cap})`;
      const over = await send(method, path, op, cap + 1);
      expect(over.status, `${where}: ${await over.text()}`).toBe(413);
      const at = await send(method, path, op, cap);
      expect(at.status, `${where} at the cap: ${await at.text()}`).not.toBe(413);
    }
  });
});
