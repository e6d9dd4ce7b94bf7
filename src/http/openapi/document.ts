// The OpenAPI 3.1 document of the whole API, built from the route table (paths, methods, access,
// errors) and the typia-generated schemas (bodies, query parameters): nothing in it is a copy.
// Types from @samchon/openapi, the OpenAPI model typia itself is typed with (type-only: no runtime use).
import type { OpenApiV3_1 } from '@samchon/openapi';
import { ERROR_CODES, type ErrorCode } from '../../errors.js';
import type { Config } from '../../config.js';
import type { Access } from '../../transport/route.js';
import { maxBytesOf, type Route, type Tag } from '../route-declaration.js';
import { SCHEMAS } from './schemas.js';

type Document = OpenApiV3_1.IDocument;
type Operation = OpenApiV3_1.IOperation & { [extension: `x-${string}`]: unknown };
type Response = OpenApiV3_1.IOperation.IResponse;
type Schema = OpenApiV3_1.IJsonSchema;

/** The API's version (package.json's; a test keeps them equal). */
export const API_VERSION = '0.1.0';

const TAGS: Readonly<Record<Tag, string>> = {
  recommendations: 'Recommended products (public key).',
  events: 'Shopper events: stored durably, then applied to the models before the answer (public key).',
  catalog: "The shop's products (secret key).",
  customers: 'What is stored about a customer, exported or erased (secret key): GDPR access and erasure.',
  rules: "The merchant's rules on answers: filter, hide, boost, bury, diversify and pin, by strategy, placement, collection and context product, within a validity window (secret key).",
  analytics: 'What recommendations earn, and A/B experiments on placements (secret key).',
  stream: 'The WebSocket channel (public key).',
  integrations: "The shop's Shopify or WooCommerce store and its scheduled product feed (secret key), and the platforms' signed webhook deliveries.",
  operations: 'Health, metrics, the widget script and this document.',
  dashboard: "The merchant's dashboard pages (a session cookie from sign-in, never the key in the page).",
  demo: 'The demo storefront, served when the demo store is on (PAIRWISE_DEMO).',
};

const SECURITY_SCHEMES: Record<string, OpenApiV3_1.ISecurityScheme> = {
  publicKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'pk_…',
    description: "The shop's public (storefront) key: reads recommendations and sends events. It names the shop.",
  },
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_…',
    description: "The shop's secret (admin) key: everything. Server-side only: refused (403) on a request with an Origin header.",
  },
  dashboardSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'pairwise_dashboard',
    description: 'The dashboard session POST /dashboard/sign-in sets (HttpOnly, SameSite=Strict, Path=/dashboard): the page never holds the key.',
  },
  publicKeyQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description: 'A public key in the URL, for browsers that cannot set headers (sendBeacon, WebSocket). A secret key in a URL is refused (403).',
  },
};

/** Who may call, as OpenAPI says it; a signed route's requirement names its signature header (signatureScheme). */
function security(route: Route): Record<string, string[]>[] {
  switch (route.access) {
    case 'none':
    case 'maybe-session':
      return [];
    case 'public':
      return [{ publicKey: [] }, { publicKeyQuery: [] }, { secretKey: [] }];
    case 'secret':
      return [{ secretKey: [] }];
    case 'session':
      return [{ dashboardSession: [] }];
    case 'signed':
      return [{ [signatureScheme(route)]: [] }];
  }
}

/** The security scheme of a signed route's platform signature: a header per platform. */
function signatureScheme(route: Route): string {
  if (route.signatureHeader === undefined) throw new Error(`openapi: ${route.method.toUpperCase()} ${route.path} is signed but names no signatureHeader`);
  return `signature:${route.signatureHeader}`;
}

const ACCESS_ERRORS: Readonly<Record<Access, readonly ErrorCode[]>> = {
  none: [],
  'maybe-session': [],
  public: ['unauthorized', 'forbidden', 'rate_limited'],
  secret: ['unauthorized', 'forbidden', 'rate_limited'],
  session: ['unauthorized', 'rate_limited'],
  signed: ['unauthorized'],
};
const BODY_ERRORS: readonly ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type'];
const FORM_BODY_ERRORS: readonly ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];
/** A raw body is not parsed by the pipeline, nor its media type checked: only its size. */
const RAW_BODY_ERRORS: readonly ErrorCode[] = ['payload_too_large'];
const BODY_KIND_ERRORS = { json: BODY_ERRORS, form: FORM_BODY_ERRORS, raw: RAW_BODY_ERRORS } as const;
/** Every route: refused while the service shuts down, and writes the storage cannot commit. */
const COMMON_ERRORS: readonly ErrorCode[] = ['unavailable'];

const text = (description: string): Schema => ({ type: 'string', description });

const PROBLEM_HEADERS: Readonly<Record<number, Response['headers']>> = {
  401: { 'WWW-Authenticate': { schema: text('Bearer realm="pairwise"') } },
  429: {
    'Retry-After': { schema: { type: 'integer', description: 'Seconds to wait.' } },
    RateLimit: { schema: text('draft-ietf-httpapi-ratelimit-headers (rate_limited, too_many_new_sessions; not storefront_quota): the refused policy, r=0 and t=<seconds>.') },
    'RateLimit-Policy': { schema: text('The refused policy (as RateLimit): q=<per window>;w=<window seconds: 1, or 60 for new sessions>;pairwise-burst=<burst>.') },
  },
  503: { 'Retry-After': { schema: { type: 'integer', description: 'Seconds to wait (shutting down).' } } },
};

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The problem+json answers of these codes, one per status, each saying which codes it may carry. */
/** `bearer`: the operation takes an API key, so its 401 carries the Bearer challenge (a dashboard session's does not). */
function problemResponses(codes: readonly ErrorCode[], bearer: boolean): Record<string, Response> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Response> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema: Schema = { allOf: [ref('ProblemBody'), { type: 'object', properties: { code: { enum: statusCodes } as Schema } }] };
    responses[String(status)] = {
      description: `${REASONS[status] ?? 'Error'}: ${statusCodes.map((c) => '`' + c + '`').join(', ')}.`,
      content: { 'application/problem+json': { schema } },
      ...(PROBLEM_HEADERS[status] && (status !== 401 || bearer) ? { headers: PROBLEM_HEADERS[status] } : {}),
    };
  }
  return responses;
}

function componentSchema(name: string): Schema {
  const schema = SCHEMAS.components.schemas?.[name];
  if (schema === undefined) throw new Error(`openapi: no schema ${name} (add its type to openapi/schemas.ts)`);
  return schema as Schema;
}

/** The query parameters of an operation: the properties of its query schema. */
function queryParameters(name: string): OpenApiV3_1.IOperation.IParameter[] {
  const schema = componentSchema(name) as OpenApiV3_1.IJsonSchema.IObject;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([property, propertySchema]) => {
    const { description, ...rest } = propertySchema as Schema & { description?: string };
    return { name: property, in: 'query', required: required.has(property), schema: rest, ...(description ? { description } : {}) };
  });
}

function pathParameters(route: Route): OpenApiV3_1.IOperation.IParameter[] {
  return [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    const description = route.doc.params?.[name!];
    if (description === undefined) throw new Error(`openapi: ${route.method.toUpperCase()} ${route.path} does not describe its parameter ${name}`);
    return { name: name!, in: 'path', required: true, schema: { type: 'string' }, description };
  });
}

function operation(route: Route, config: Config): Operation {
  const { doc } = route;
  const ok: Response = { description: doc.ok.description };
  if (doc.ok.schema !== undefined) ok.content = { [doc.ok.contentType ?? 'application/json']: { schema: ref(doc.ok.schema) } };
  else if (doc.ok.contentType !== undefined) ok.content = { [doc.ok.contentType]: {} };
  const body = route.body;
  const errors = [...(doc.errors ?? []), ...ACCESS_ERRORS[route.access], ...(body === undefined ? [] : BODY_KIND_ERRORS[body.kind]), ...COMMON_ERRORS];
  const parameters = [...pathParameters(route), ...(doc.query ? queryParameters(doc.query) : [])];
  const op: Operation = {
    operationId: operationId(route),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    security: security(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: { [String(doc.ok.status)]: ok, ...problemResponses(errors, route.access === 'public' || route.access === 'secret') },
  };
  if (body !== undefined) {
    const maxBytes = maxBytesOf(body.maxBytes, config);
    if (body.kind === 'json') {
      const content: Record<string, OpenApiV3_1.IOperation.IMediaType> = { 'application/json': { schema: ref(body.schema) } };
      if (body.textPlain) content['text/plain'] = { schema: ref(body.schema) };
      op.requestBody = { required: true, description: `JSON, at most ${maxBytes / 1024} KiB${body.textPlain ? ' (also as text/plain: sendBeacon sends no preflight)' : ''}.`, content };
    } else if (body.kind === 'form') {
      op.requestBody = { required: true, description: `A form, at most ${maxBytes / 1024} KiB.`, content: { 'application/x-www-form-urlencoded': {} } };
    } else {
      op.requestBody = { required: true, description: `At most ${maxBytes / 1024} KiB, signed as received: its bytes are checked before anything reads them.`, content: { [body.contentType]: {} } };
    }
    op['x-pairwise-max-body-bytes'] = maxBytes;
  }
  if (route.demo) op['x-pairwise-demo-only'] = true;
  if (route.handler === undefined) {
    op['x-pairwise-websocket'] = {
      description: 'After the upgrade: the client sends clientMessage frames, the server answers with serverMessage frames (and pushes recommendations messages whenever a subscribed list changes).',
      clientMessage: ref('ClientMessage'),
      serverMessage: { oneOf: [ref('ServerMessage'), ref('RecommendationsMessage')] },
    };
  }
  return op;
}

/** 'get' '/api/products/{id}' → 'getApiProductsId': stable, unique per method and path. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function preflight(tag: Tag): Operation {
  return {
    summary: 'CORS preflight',
    tags: [tag],
    security: [],
    responses: {
      '204': {
        description: 'The storefront may call this path from any origin (a shop may narrow that to its own origins); credentials are never allowed.',
        headers: {
          'Access-Control-Allow-Methods': { schema: text('GET, POST, OPTIONS') },
          'Access-Control-Allow-Headers': { schema: text('authorization, content-type') },
          'Access-Control-Max-Age': { schema: text('86400') },
        },
      },
    },
  };
}

/** The document of `routes` as a server with `config` enforces them (its body caps). */
export function openApiDocument(routes: readonly Route[], config: Config): Document {
  const paths: Record<string, OpenApiV3_1.IPath> = {};
  const signatureSchemes: Record<string, OpenApiV3_1.ISecurityScheme> = {};
  for (const route of routes) {
    const path = (paths[route.path] ??= {});
    if (path[route.method] !== undefined) throw new Error(`openapi: ${route.method.toUpperCase()} ${route.path} is in the route table twice`);
    path[route.method] = operation(route, config);
    if (route.access === 'signed') {
      signatureSchemes[signatureScheme(route)] = { type: 'apiKey', in: 'header', name: route.signatureHeader!, description: "The platform's signature (HMAC) of the raw body with the shop's webhook secret." };
    }
    if (route.storefront) path.options = preflight(route.doc.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pairwise',
      version: API_VERSION,
      description:
        'Real-time product recommendations for online stores. Every /api path is also served under BASE_PATH/api when BASE_PATH is set (an app proxy). ' +
        'Every error is application/problem+json (RFC 9457) with a stable `code`. Any request whose body framing is ambiguous (two Content-Length headers, ' +
        'a Transfer-Encoding other than exactly `chunked`, or both) is answered 400 `bad_request` and its connection closed, ' +
        'a known path with another method 405 `method_not_allowed` (with Allow), an unknown path 404 `not_found`. Every GET path answers HEAD as well.',
    },
    tags: (Object.keys(TAGS) as Tag[]).map((name) => ({ name, description: TAGS[name] })),
    paths,
    components: {
      schemas: SCHEMAS.components.schemas as Record<string, Schema>,
      securitySchemes: { ...SECURITY_SCHEMES, ...signatureSchemes },
    },
  };
}
