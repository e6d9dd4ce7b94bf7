// Random and mutated requests for every HTTP route of the service (src/http/server.ts and the
// stream route): a route is picked, then its method, path, query, headers and body are each either
// right or wrong in one of many ways. Keys, tokens and demo names are placeholders ({{pk}}, …)
// filled in when the request is written, so counterexamples read the same from run to run.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encodeCursor } from '../../src/api/catalog-page-query.js';
import { EVENT_TYPES } from '../../src/api/event.js';
import { STRATEGIES } from '../../src/engine/strategy.js';
import { jsonBody, nastyString, percentEncode } from './mutations.js';

/** Catalog products the fuzzer never changes (it writes and deletes only FUZZ_PRODUCTS): answers about them stay checkable. */
export const STABLE_PRODUCTS = ['stable-1', 'stable-2', 'stable-3', 'stable-4', 'stable-5', 'stable-6'];
export const FUZZ_PRODUCTS = ['f1', 'f2', 'f3', 'f4', 'f5'];
export const BASE_PATH = '/apps/recs';
/** Customers with customer tokens ({{token:c1}}); c9 has none. */
export const TOKEN_CUSTOMERS = ['c1', 'c2'];

export interface FuzzRequest {
  /** The route the request was made for (it may have been mutated away from it). */
  route: string;
  method: string;
  /** Path and query, already encoded (may hold placeholders). */
  target: string;
  headers: [string, string][];
  body: Buffer;
}

/** What fills the placeholders: the test shop's keys and tokens, the demo shop's key and names. */
export interface Placeholders {
  readonly values: Readonly<Record<string, string>>;
}

export function fill(text: string, placeholders: Placeholders): string {
  return text.replace(/\{\{([a-z0-9:-]+)\}\}/g, (whole, name: string) => placeholders.values[name] ?? whole);
}

/** The request as bytes: request line, Host, the headers, Content-Length when there is a body. */
export function requestBytes(request: FuzzRequest, placeholders: Placeholders): Buffer {
  const body = Buffer.from(fill(request.body.toString('latin1'), placeholders), 'latin1');
  let head = `${request.method} ${fill(request.target, placeholders)} HTTP/1.1\r\nHost: fuzz.test\r\n`;
  for (const [name, value] of request.headers) head += `${name}: ${fill(value, placeholders)}\r\n`;
  if (body.length > 0 || request.method === 'POST' || request.method === 'PUT') head += `Content-Length: ${body.length}\r\n`;
  return Buffer.concat([Buffer.from(head + '\r\n', 'utf8'), body]);
}

/** One line for failure messages. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body.length > 200 ? `${request.body.subarray(0, 200).toString('latin1')}… (${request.body.length} bytes)` : request.body.toString('latin1');
  return `[${request.route}] ${request.method} ${request.target.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 400)} ${body}`;
}

/** Routes answered after an await (body read, commit): uWS closes a connection pipelining past one of them. */
export function isAsyncRoute(request: FuzzRequest): boolean {
  const path = request.target.split('?', 1)[0]!.replace(BASE_PATH, '');
  return (
    (request.method === 'POST' && (path === '/api/events' || path === '/api/events/batch')) ||
    (request.method === 'PUT' && (path === '/api/products' || path === '/api/shop/widgets')) ||
    (request.method === 'DELETE' && (/^\/api\/(products|customers)\/[^/]+$/.test(path) || path === '/api/shop'))
  );
}

// ---- demo names, read from the shipped demo store ----

const demoDir = path.resolve('data/demo');
const demoProducts = JSON.parse(readFileSync(path.join(demoDir, 'products.json'), 'utf8')) as { id: string; handle: string }[];
const demoCollections = JSON.parse(readFileSync(path.join(demoDir, 'collections.json'), 'utf8')) as { id: string; handle: string }[];

// ---- pieces ----

/**
 * uWS reads a request head of at most ~128 KiB and 47 headers besides Host: past that it closes the
 * connection (or, past the header count, leaves it unanswered) before our code runs. Requests here
 * stay under both (the framing property goes past them); values are cut to keep the head small.
 */
const MAX_VALUE_CHARS = 1_000;

/** Header values stay on their line: CR, LF and other controls would change the framing (fuzzed in the framing property). */
const headerText = (arb: fc.Arbitrary<string>): fc.Arbitrary<string> => arb.map((s) => s.slice(0, MAX_VALUE_CHARS).replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' '));

const AUTH_ROLES = ['pk', 'sk', 'demo-pk', 'demo-sk'] as const;
type KeyRole = (typeof AUTH_ROLES)[number];

/** Authorization header (or none), mostly with the key the route needs. */
function authorization(right: KeyRole | undefined): fc.Arbitrary<[string, string][]> {
  const bearer = (role: string) => [['Authorization', `Bearer {{${role}}}`]] as [string, string][];
  return fc.oneof(
    { weight: right === undefined ? 1 : 12, arbitrary: fc.constant(bearer(right ?? 'pk')) },
    { weight: 3, arbitrary: fc.constantFrom(...AUTH_ROLES).map(bearer) },
    { weight: 3, arbitrary: fc.constant([] as [string, string][]) },
    {
      weight: 3,
      arbitrary: headerText(
        fc.oneof(
          fc.constantFrom('Bearer', 'Bearer ', 'bearer {{pk}}', 'BEARER  {{pk}}  ', 'Bearer {{pk}}x', 'Bearer pk_unknown0000000000000000000000', 'Bearer sk_unknown00000000000000000000000', 'Basic dXNlcjpwYXNz', 'Bearer {{pk}} {{sk}}', 'Bearer\t{{sk}}'),
          nastyString.map((s) => `Bearer ${s}`),
          nastyString,
        ),
      ).map((value) => [['Authorization', value]] as [string, string][]),
    },
    // Two Authorization headers: uWS reads the first.
    { weight: 1, arbitrary: fc.constantFrom(...AUTH_ROLES).map((role) => [...bearer(role), ...bearer(right ?? 'pk')]) },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/problem+json',
  'application/msgpack',
  '*/*',
  ';',
  'application/json; charset=latin1',
];

const optionalHeader = (name: string, values: fc.Arbitrary<string>, weightAbsent = 3): fc.Arbitrary<[string, string][]> =>
  fc.oneof({ weight: weightAbsent, arbitrary: fc.constant([] as [string, string][]) }, { weight: 1, arbitrary: headerText(values).map((v) => [[name, v]] as [string, string][]) });

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant([['Content-Type', 'application/json']] as [string, string][]) },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((v) => [['Content-Type', v]] as [string, string][]) },
  { weight: 1, arbitrary: fc.constant([] as [string, string][]) },
  { weight: 1, arbitrary: headerText(nastyString).map((v) => [['Content-Type', v]] as [string, string][]) },
  { weight: 1, arbitrary: fc.constant([['Content-Type', 'text/html'], ['Content-Type', 'application/json']] as [string, string][]) },
);

const origin = optionalHeader('Origin', fc.oneof(fc.constantFrom('https://shop.example', 'null', 'http://127.0.0.1:1', 'https://evil.example', ''), nastyString), 4);

const cookie = optionalHeader(
  'Cookie',
  fc.oneof(
    fc.constantFrom('{{shopper}}', '', '%', '%E0%A4%A', '%ZZ', 'unknown-shopper', '%00', '{{shopper}}%').map((v) => `pairwise_demo_shopper=${v}`),
    nastyString.map((v) => `pairwise_demo_shopper=${v}`),
    nastyString,
    fc.constantFrom('a=1; pairwise_demo_shopper=%; b', '=; ;;', 'pairwise_demo_shopper'),
  ),
  2,
);

const acceptEncoding = optionalHeader('Accept-Encoding', fc.oneof(fc.constantFrom('gzip', 'br, gzip;q=0', 'identity', 'GZIP', '*'), nastyString), 2);

/** Headers nobody asked for: random names and values, and hop-by-hop ones. */
const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/), headerText(fc.oneof(nastyString, fc.string({ maxLength: 30 })))),
    fc.constantFrom<[string, string]>(['Connection', 'close'], ['Connection', 'keep-alive'], ['X-Forwarded-For', '203.0.113.9'], ['Expect', 'nothing'], ['Upgrade', 'h2c'], ['Accept', 'application/json']),
  ),
  { maxLength: 3 },
);

function encodeQuery(params: readonly [string, string, boolean][]): string {
  // `raw`: written as is, so broken percent sequences and stray '&', '=' reach the parser.
  return params.map(([name, value, raw]) => (raw ? `${name}=${value}` : `${percentEncode(name.slice(0, MAX_VALUE_CHARS))}=${percentEncode(value.slice(0, MAX_VALUE_CHARS))}`)).join('&');
}

const RAW_QUERY_VALUES = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%00', '%FF%FE', '+', '&&', '==', ';', '%2', 'a%20b', '%C0%80'];

/** Query parameters: the route's own (valid values mostly), others, repeated ones, broken encodings, long values. */
function queryString(names: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const known = Object.keys(names);
  const param: fc.Arbitrary<[string, string, boolean]> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known).chain((name) => names[name]!.map((value) => [name, value, false] as [string, string, boolean])) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...known, 'key', 'unknown', ''), nastyString, fc.constant(false)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...known, 'key'), fc.constantFrom(...RAW_QUERY_VALUES), fc.constant(true)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('key'), fc.constantFrom('{{pk}}', '{{sk}}', '{{demo-pk}}'), fc.constant(true)) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), fc.constant(false)) },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 8, arbitrary: fc.array(param, { minLength: 1, maxLength: 6 }).map((params) => '?' + encodeQuery(params)) },
    { weight: 1, arbitrary: fc.constantFrom('?', '??', '?&', '?=', '?%', '?a', '?x=' + 'y'.repeat(8_000)) },
  );
}

const productId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STABLE_PRODUCTS, ...FUZZ_PRODUCTS) },
  { weight: 1, arbitrary: fc.constantFrom(...STABLE_PRODUCTS, ...FUZZ_PRODUCTS).map((id) => `gid://shopify/Product/${id}`) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,8}$/) },
);

const sessionId = fc.oneof(fc.constantFrom('s1', 's2', 's3'), fc.uuid().map((u) => `solo-${u}`));

const catalogPageParams: Record<string, fc.Arbitrary<string>> = {
  limit: fc.oneof(fc.integer({ min: 1, max: 250 }).map(String), fc.constantFrom('0', '251', '-1', '1.5', '007', ' 3')),
  cursor: fc.oneof(productId.map(encodeCursor), fc.constantFrom('MToxMj', 'Mjox', '=', 'MTox=')),
};

const customerEventsParams: Record<string, fc.Arbitrary<string>> = {
  limit: fc.oneof(fc.integer({ min: 1, max: 1000 }).map(String), fc.constantFrom('0', '1001', '-1', '1.5', '007', ' 3')),
  cursor: fc.oneof(fc.integer({ min: 1, max: 100 }).map(String), fc.constantFrom('0', '01', '1e3', '-2', '9007199254740993', 'abc')),
};

export const recommendationParams: Record<string, fc.Arbitrary<string>> = {
  productId,
  collectionId: fc.constantFrom('c1', 'c2', 'gid://shopify/Collection/c1', '501'),
  customerId: fc.constantFrom(...TOKEN_CUSTOMERS, 'c9'),
  sessionId,
  strategy: fc.oneof(fc.constantFrom(...STRATEGIES), fc.constantFrom('auto', 'TRENDING', '')),
  limit: fc.oneof(fc.integer({ min: 1, max: 24 }).map(String), fc.constantFrom('0', '25', '-1', '1.5', '1e1', '007', '9999', ' 3')),
  exclude: fc.array(productId, { maxLength: 4 }).map((ids) => ids.join(',')),
  customerToken: fc.constantFrom('{{token:c1}}', '{{token:c2}}', 'ct1.bad.1.x.y'),
  logged_in_customer_id: fc.constantFrom('c1', ''),
  signature: fc.constantFrom('0'.repeat(64), 'zz'),
  timestamp: fc.constantFrom('0', String(Math.floor(Date.now() / 1000))),
  filters: fc.oneof(
    fc.constantFrom('vendor:Acme', 'price < 50 AND NOT tag:x', 'same:vendor OR price:0.5x..2x', '(collection:c1', 'colour:red', 'price:a..b', '"'),
    fc.string({ maxLength: 40 }),
    fc.constant('tag:a OR '.repeat(70) + 'tag:a'),
  ),
  diversity: fc.constantFrom('vendor:2', 'productType:1', 'tag:2', 'vendor:0', 'vendor:99', 'x'),
};

// ---- valid bodies ----

const NOW = Date.now();

export const eventSample: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    type: fc.constantFrom(...EVENT_TYPES),
    productId,
    sessionId,
    customerId: fc.constantFrom(...TOKEN_CUSTOMERS, 'c9'),
    customerToken: fc.constantFrom('{{token:c1}}', '{{token:c2}}'),
    widgetId: fc.constantFrom('w1', 'home-trending'),
    metadata: fc.dictionary(fc.constantFrom('orderId', 'position', 'strategy', 'x'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    messageId: fc.nat(30).map((n) => `m-${n}`),
    timestamp: fc.oneof(fc.integer({ min: NOW - 7 * 86_400_000, max: NOW }), fc.integer({ min: NOW - 7 * 86_400_000, max: NOW }).map((ms) => new Date(ms).toISOString())),
  },
  { requiredKeys: ['type', 'productId', 'sessionId'] },
);

const batchSample = fc.array(eventSample, { minLength: 1, maxLength: 5 }).map((events) => ({ events }));

const catalogSample = fc
  .array(
    fc.record(
      {
        id: fc.constantFrom(...FUZZ_PRODUCTS),
        title: fc.string({ minLength: 1, maxLength: 20 }),
        handle: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,10}$/),
        image: fc.constantFrom('https://cdn.example/a.jpg', '/x.png'),
        price: fc.oneof(fc.constantFrom('10.00', '0', '19.99'), fc.nat(1000)),
        compareAtPrice: fc.constantFrom('12.00', null),
        vendor: fc.constantFrom('Acme', 'Hearth & Co'),
        productType: fc.constantFrom('Mug', 'Apron'),
        tags: fc.array(fc.constantFrom('linen', 'red', 'gift'), { maxLength: 3 }),
        collections: fc.array(fc.constantFrom('c1', 'c2'), { maxLength: 2 }),
        available: fc.boolean(),
        repurchasable: fc.boolean(),
      },
      { requiredKeys: ['id', 'title'] },
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((products) => ({ products }));

const widgetsSample = fc
  .array(fc.oneof(fc.constantFrom('home', 'pdp', '(other)'), fc.string({ minLength: 1, maxLength: 130 })), { maxLength: 70 })
  .map((widgets) => ({ widgets }));

// ---- routes ----

interface RouteModel {
  name: string;
  method: string;
  /** Path without query; the stream route too (fetched without an upgrade). */
  path: fc.Arbitrary<string>;
  key?: KeyRole;
  query?: fc.Arbitrary<string>;
  body?: fc.Arbitrary<Buffer>;
  /** Route-specific headers beyond the common ones. */
  headers?: fc.Arbitrary<[string, string][]>;
  /** Under /api: also reachable under BASE_PATH. */
  api?: boolean;
  /** How often it is picked relative to the others (default: 3 with a body, else 1). */
  weight?: number;
}

const pathParam = (valid: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: valid.map(percentEncode) },
    { weight: 2, arbitrary: nastyString.map((s) => percentEncode(s.slice(0, MAX_VALUE_CHARS))) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '.', '%2F', 'a%2Fb', '%00') },
  );

const ROUTES: RouteModel[] = [
  { name: 'GET /api/recommendations', method: 'GET', path: fc.constant('/api/recommendations'), key: 'pk', query: queryString(recommendationParams), api: true, weight: 4 },
  { name: 'POST /api/events', method: 'POST', path: fc.constant('/api/events'), key: 'pk', body: jsonBody(eventSample), api: true },
  { name: 'POST /api/events/batch', method: 'POST', path: fc.constant('/api/events/batch'), key: 'pk', body: jsonBody(batchSample), api: true },
  { name: 'PUT /api/products', method: 'PUT', path: fc.constant('/api/products'), key: 'sk', body: jsonBody(catalogSample), api: true },
  { name: 'GET /api/products', method: 'GET', path: fc.constant('/api/products'), key: 'sk', query: queryString(catalogPageParams), api: true },
  { name: 'GET /api/shop', method: 'GET', path: fc.constant('/api/shop'), key: 'sk', api: true },
  { name: 'PUT /api/shop/widgets', method: 'PUT', path: fc.constant('/api/shop/widgets'), key: 'sk', body: jsonBody(widgetsSample), api: true },
  // Customers no fuzzed event names: a DELETE among the random methods erases nothing acknowledged.
  { name: 'GET /api/customers/:id', method: 'GET', path: pathParam(fc.constantFrom('nobody', 'cust-unknown', 'ünïcode ✓')).map((id) => `/api/customers/${id}`), key: 'sk', query: queryString(customerEventsParams), api: true },
  { name: 'GET /api/products/:id', method: 'GET', path: pathParam(productId).map((id) => `/api/products/${id}`), key: 'sk', api: true },
  { name: 'DELETE /api/products/:id', method: 'DELETE', path: pathParam(fc.constantFrom(...FUZZ_PRODUCTS, 'missing')).map((id) => `/api/products/${id}`), key: 'sk', api: true },
  { name: 'GET /api/stream (no upgrade)', method: 'GET', path: fc.constant('/api/stream'), key: 'pk', api: true, headers: optionalHeader('Upgrade', fc.constantFrom('websocket', 'h2c'), 1) },
  { name: 'GET /healthz', method: 'GET', path: fc.constant('/healthz') },
  { name: 'GET /metrics', method: 'GET', path: fc.constant('/metrics'), key: 'sk' },
  { name: 'GET /widget.js', method: 'GET', path: fc.constant('/widget.js'), headers: acceptEncoding },
  { name: 'GET /demo/images/:file', method: 'GET', path: pathParam(fc.constantFrom(...demoProducts.slice(0, 5).map((p) => `${p.id}.svg`), '0.svg', 'x.png')).map((f) => `/demo/images/${f}`) },
  { name: 'GET /demo', method: 'GET', path: fc.constant('/demo'), headers: cookie },
  { name: 'GET /demo/collections/:handle', method: 'GET', path: pathParam(fc.constantFrom(...demoCollections.slice(0, 4).flatMap((c) => [c.handle, c.id]))).map((h) => `/demo/collections/${h}`), headers: cookie },
  { name: 'GET /demo/products/:handle', method: 'GET', path: pathParam(fc.constantFrom(...demoProducts.slice(0, 4).map((p) => p.handle))).map((h) => `/demo/products/${h}`), headers: cookie },
  {
    name: 'GET /demo/sign-in',
    method: 'GET',
    path: fc.constant('/demo/sign-in'),
    query: queryString({ shopper: fc.constantFrom('{{shopper}}', '', 'nobody'), back: fc.constantFrom('/demo', '/demo/products/x', 'https://evil.example', '//evil.example', '/demo/../x', '/demo\\x') }),
  },
  { name: 'unknown path', method: 'GET', path: fc.oneof(fc.constantFrom('/', '/api', '/api/', '/API/events', '/api/events/', '/api//events', '/apps/recs', '/demo/', '/favicon.ico'), fc.webPath().map((p) => (p.startsWith('/') ? p : '/' + p))) },
];

/** Methods uWS parses (a lower-case or unknown one closes the connection unanswered: see the framing property). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'];

const PATH_MUTATIONS: Record<string, (p: string) => string> = {
  none: (p) => p,
  'trailing slash': (p) => p + '/',
  'double slash': (p) => p.replace('/', '//'),
  'upper case': (p) => p.toUpperCase(),
  'extra segment': (p) => p + '/x',
  'encoded space': (p) => p + '%20',
  'path parameter': (p) => p + ';x',
};

function routeRequest(route: RouteModel): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, { weight: 2, arbitrary: fc.constantFrom(...METHODS) });
  const prefix = route.api ? fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constant(BASE_PATH) }) : fc.constant('');
  const pathMutation = fc.oneof({ weight: 12, arbitrary: fc.constant('none') }, { weight: 1, arbitrary: fc.constantFrom(...Object.keys(PATH_MUTATIONS)) });
  // Routes that read no query still get one now and then (a key in it, unknown parameters).
  const query = route.query ?? fc.option(queryString({ key: fc.constant('{{pk}}'), x: fc.constant('1') }), { freq: 4, nil: '' });
  const body = route.body ?? fc.oneof({ weight: 8, arbitrary: fc.constant(Buffer.alloc(0)) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 32 }).map((b) => Buffer.from(b)) });
  const headers = fc
    .tuple(authorization(route.key), route.body ? contentType : optionalHeader('Content-Type', fc.constantFrom(...CONTENT_TYPES)), origin, route.headers ?? fc.constant([]), extraHeaders)
    .map((parts) => parts.flat() as [string, string][]);
  return fc.record({ method, prefix, path: route.path, pathMutation, query, headers, body }).map(({ method: m, prefix: pre, path: p, pathMutation: mutation, query: q, headers: h, body: b }) => {
    const request: FuzzRequest = { route: route.name + (mutation === 'none' ? '' : ` (${mutation})`), method: m, target: pre + PATH_MUTATIONS[mutation]!(p) + q, headers: h, body: b };
    // Counterexamples print shortened (a body or query may run to hundreds of KiB); seed and path replay the whole.
    return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
  });
}

/** A request for any route; CORS preflights ride along as the OPTIONS variant of each route. */
export const anyRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(...ROUTES.map((route) => ({ weight: route.weight ?? (route.body ? 3 : 1), arbitrary: routeRequest(route) })));
