// What one entry of the route table declares: its method and path, who may call it (access), its
// body (kind, cap, validation), its handler, and how the OpenAPI document describes it. The server
// compiles each entry into its pipeline (transport/route.ts) and the document is generated from the
// same entries, so what is documented is what is enforced, whatever the configuration.
import type { Principal } from '../app/principal.js';
import type { Config } from '../config.js';
import type { ErrorCode } from '../errors.js';
import type { Access, BodySpec, Handler, RouteSpec, SignatureCheck, SignedCaller } from '../transport/route.js';
import type { SignedIn } from './dashboard-auth.js';
import type { HttpDeps } from './deps.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export type Tag = 'recommendations' | 'events' | 'catalog' | 'rules' | 'customers' | 'analytics' | 'integrations' | 'stream' | 'operations' | 'dashboard' | 'demo';

export interface OperationDoc {
  summary: string;
  description?: string;
  tag: Tag;
  /** A schema (component name) whose properties are the query parameters. */
  query?: string;
  /** Each path parameter ({name} in the path), described. */
  params?: Readonly<Record<string, string>>;
  /** The success answer: its status, media type and (for JSON) schema. */
  ok: { status: number; description: string; contentType?: string; schema?: string };
  /** Error codes of this operation beyond those its access, body and every route bring (openapi/document.ts). */
  errors?: readonly ErrorCode[];
}

/** The caller a handler finds on its exchange, by its route's access. */
export type CallerOf<A extends Access> = A extends 'public' | 'secret'
  ? Principal
  : A extends 'session'
    ? SignedIn
    : A extends 'maybe-session'
      ? SignedIn | undefined
      : A extends 'signed'
        ? SignedCaller
        : undefined;

/** What every caller that names a shop has: an API key's principal, a dashboard session, a signed delivery. */
export interface ShopCaller {
  readonly shopId: string;
}

/** A cap fixed by the route, or one the configuration sets (read when the server starts). */
export type ByteCap = number | ((config: Config) => number);

/** A route's body: what the pipeline reads, caps, checks and hands the handler as `body`. */
export type BodyDeclaration<B> =
  | {
      kind: 'json';
      /** Its schema in the OpenAPI document (a component of openapi/schemas.ts). */
      schema: string;
      /** JSON sent as text/plain is taken too (navigator.sendBeacon sends no preflight). */
      textPlain?: true;
      maxBytes: ByteCap;
      /**
       * The body's typia validation: the value the handler gets, or throws the route's AppError
       * (absent: the use case validates it, against the shop's state or as the stream does).
       */
      parse?: (input: unknown, deps: HttpDeps) => B;
      /** Rate-limit tokens the request costs in all (a batch: its events). */
      cost?: (body: B) => number;
    }
  | { kind: 'form'; maxBytes: number }
  /** The bytes as received, before anything parses them: what a platform signs. `contentType` is documented, not checked. */
  | { kind: 'raw'; contentType: string; maxBytes: ByteCap };

export interface RouteDeclaration<A extends Access = Access, B = unknown> {
  method: HttpMethod;
  /** In OpenAPI form ('/api/products/{id}'); a path under /api is served under BASE_PATH/api too. */
  path: string;
  access: A;
  /** Called by browsers cross-origin: answers carry CORS headers and the path answers preflights (OPTIONS). */
  storefront?: true;
  /** A form the service's own pages post: Origin must be this host. */
  sameOrigin?: true;
  /** Each request costs its client address a dashboard sign-in attempt (its own bound, apart from the API's). */
  signIns?: true;
  /** Access `signed`: the header holding the platform's signature (documented; the check reads it). */
  signatureHeader?: string;
  /** Access `signed`: the platform's signature check over the raw body. */
  verify?: (deps: HttpDeps) => SignatureCheck;
  /** Request headers the handler reads beyond the usual ones (lower-case). */
  headers?: readonly string[];
  body?: BodyDeclaration<B>;
  /** The last `{param}` is registered as uWS's `*`: every deeper path too, after any other pattern. */
  wildcard?: true;
  /** Served only while the demo store is on (PAIRWISE_DEMO). */
  demo?: true;
  /** Undefined for GET /api/stream: the WebSocket server registers it (ws/stream-server.ts). */
  handler?: (deps: HttpDeps) => Handler<CallerOf<A>, B>;
  doc: OperationDoc;
}

/** An entry of the table, its types erased (declare() checked them). */
export type Route = RouteDeclaration<Access, unknown>;

/** An entry of the route table: its handler checked against its access (the caller) and its body. */
export function declare<A extends Access, B = undefined>(route: RouteDeclaration<A, B>): Route {
  return route as unknown as Route;
}

/** The body's cap under `config`. */
export function maxBytesOf(cap: ByteCap, config: Config): number {
  return typeof cap === 'number' ? cap : cap(config);
}

/** URL parameters the handler gets: a wildcard's last segment is none. */
function paramCount(route: Route): number {
  let count = 0;
  for (let i = 0; i < route.path.length; i++) if (route.path.charCodeAt(i) === 123 /* { */) count++;
  return route.wildcard ? count - 1 : count;
}

function bodySpec(body: BodyDeclaration<unknown>, deps: HttpDeps): BodySpec {
  const maxBytes = maxBytesOf(body.maxBytes, deps.config);
  if (body.kind !== 'json') return { kind: body.kind, maxBytes };
  const { parse, cost } = body;
  return { kind: 'json', maxBytes, ...(parse ? { parse: (input: unknown) => parse(input, deps) } : {}), ...(cost ? { cost } : {}) };
}

/** What the pipeline enforces for `route` under `config` (its caps read from it). */
export function routeSpec(route: Route, deps: HttpDeps): RouteSpec {
  const headers = [...(route.headers ?? []), ...(route.signatureHeader ? [route.signatureHeader] : [])];
  return {
    access: route.access,
    storefront: route.storefront === true,
    sameOrigin: route.sameOrigin === true,
    change: route.method !== 'get',
    signIns: route.signIns === true,
    params: paramCount(route),
    ...(headers.length > 0 ? { headers } : {}),
    ...(route.body ? { body: bodySpec(route.body, deps) } : {}),
    ...(route.verify ? { verify: route.verify(deps) } : {}),
  };
}
