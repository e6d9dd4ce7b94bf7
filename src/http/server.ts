// The uWS app: every route of the route table (those under /api also under BASE_PATH/api; each GET
// answers HEAD too), 405 for known paths with another method, 404 for the rest, and a shutdown that
// stops listening, lets requests finish, then closes.
import uWS from 'uWebSockets.js';
import { AppError, StartupError } from '../errors.js';
import { PREFLIGHT_HEADERS } from '../transport/cors.js';
import { sessionAccess } from './dashboard-auth.js';
import type { HttpDeps } from './deps.js';
import { Exchange, readRequest } from '../transport/exchange.js';
import { Lifecycle } from '../transport/lifecycle.js';
import { recordingApp, type RegisteredRoute } from './registered-routes.js';
import { refuseBadFraming, route, type Access, type Handler, type RouteDeps } from '../transport/route.js';
import { routeSpec, type HttpMethod, type Route } from './route-declaration.js';
import { ROUTES } from './route-table.js';
import { UNMATCHED_ROUTE } from '../observability/request-metrics.js';

const UWS_METHODS = { get: 'get', post: 'post', put: 'put', delete: 'del' } as const satisfies Record<HttpMethod, keyof uWS.TemplatedApp>;

/** A route table path as uWS writes it: '/api/products/{id}' → '/api/products/:id'. */
export function uwsPattern(path: string, wildcard = false): string {
  const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
  return wildcard ? pattern.replace(/:[^/]+$/, '*') : pattern;
}

/** The table's routes this server answers, by path (the demo pages only with the demo store on). */
function routesByPath(deps: HttpDeps): Map<string, Route[]> {
  const byPath = new Map<string, Route[]>();
  for (const entry of ROUTES) {
    if (entry.demo && deps.demo === undefined) continue;
    if (entry.handler === undefined) continue; // registered by its own server (GET /api/stream)
    const routes = byPath.get(entry.path);
    if (routes === undefined) byPath.set(entry.path, [entry]);
    else routes.push(entry);
  }
  return byPath;
}

const OPEN = { access: 'none' } as const;

export interface HttpServer {
  readonly port: number;
  readonly app: uWS.TemplatedApp;
  readonly lifecycle: Lifecycle;
  /** Every method and pattern registered on the app, in order (the WebSocket server's included). */
  readonly routes: readonly RegisteredRoute[];
  /** Stops listening, waits (≤ drainMs) for requests in flight, closes every connection. */
  close(drainMs?: number): Promise<void>;
}

function register(app: uWS.TemplatedApp, routeDeps: RouteDeps, deps: HttpDeps, pattern: string, routes: readonly Route[]): void {
  const allowed = routes.flatMap((entry) => (entry.method === 'get' ? ['GET', 'HEAD'] : [entry.method.toUpperCase()]));
  const storefront = routes.some((entry) => entry.storefront);
  if (storefront) allowed.push('OPTIONS');
  // Counted under the table's path, whatever the prefix (BASE_PATH) it was reached by.
  const counted: RouteDeps = { ...routeDeps, observer: deps.telemetry.observer(routes[0]!.path) };
  for (const entry of routes) {
    const handler = route(routeSpec(entry, deps), entry.handler!(deps) as Handler, counted);
    app[UWS_METHODS[entry.method]](pattern, handler);
    // HEAD is GET without the body (RFC 9110 §9.3.2): the same handler, whose Exchange leaves it out.
    if (entry.method === 'get') app.head(pattern, handler);
  }
  if (storefront) {
    app.options(pattern, route(OPEN, (exchange) => {
      const origin = exchange.request.origin;
      exchange.noContent(origin === '' ? PREFLIGHT_HEADERS : { ...PREFLIGHT_HEADERS, 'access-control-allow-origin': origin, vary: 'Origin' });
    }, counted));
  }
  const allow = allowed.join(', ');
  app.any(pattern, route(OPEN, () => {
    throw new AppError('method_not_allowed', `use ${allow}`, undefined, { allow });
  }, counted));
}

/** uSockets' listen option that leaves SO_REUSEPORT off (the typings lack it as a value; the binding exports it as 1). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;
/** uSockets' default: SO_REUSEPORT on, so the server processes of one supervisor share the port. */
const LIBUS_LISTEN_DEFAULT = 0;

type ListenWithOptions = (host: string, port: number, options: number, cb: (token: uWS.us_listen_socket | false) => void) => uWS.TemplatedApp;

/**
 * uWS sets SO_REUSEPORT on a listening socket by default, so a second server on the same port
 * would start silently and take part of the traffic. A server alone listens exclusively, which
 * makes a second one fail instead; the servers of one supervisor share the port on purpose (its
 * supervisor checked that nothing else held it). (The typings only declare
 * `listen(port, options, cb)`; the binding also takes `listen(host, port, options, cb)`, as
 * test/http/single-writer.test.ts checks.)
 */
function listenOn(app: uWS.TemplatedApp, host: string, port: number, shared: boolean, cb: (token: uWS.us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, shared ? LIBUS_LISTEN_DEFAULT : LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

/**
 * The server registering a route of the table that has no handler (GET /api/stream, the WebSocket
 * server's): given the app, the HTTP lifecycle and the access the table declares for it.
 */
export type OwnRoutes = (app: uWS.TemplatedApp, lifecycle: Lifecycle, access: Access) => void;

export function startHttpServer(deps: HttpDeps, ownRoutes?: OwnRoutes): Promise<HttpServer> {
  const uwsApp = uWS.App();
  const lifecycle = new Lifecycle();
  const routes: RegisteredRoute[] = [];
  const app = recordingApp(uwsApp, routes);
  const routeDeps: RouteDeps = { lifecycle, limits: deps.limits, resolveKey: deps.resolveKey, sessions: sessionAccess(deps), proxies: deps.proxies };
  const prefixes = deps.config.basePath === '' ? [''] : ['', deps.config.basePath];
  for (const [path, pathRoutes] of routesByPath(deps)) {
    for (const prefix of path.startsWith('/api/') ? prefixes : ['']) {
      register(app, routeDeps, deps, prefix + uwsPattern(path, pathRoutes.some((entry) => entry.wildcard)), pathRoutes);
    }
  }
  const streamRoute = ROUTES.find((entry) => entry.handler === undefined);
  if (ownRoutes !== undefined && streamRoute !== undefined) ownRoutes(app, lifecycle, streamRoute.access);
  const unmatched = deps.telemetry.observer(UNMATCHED_ROUTE);
  app.any('/*', (res, req) => {
    const exchange = new Exchange(res, readRequest(req), lifecycle, unmatched);
    if (refuseBadFraming(exchange)) return;
    exchange.problem(new AppError('not_found', `no route for ${req.getMethod().toUpperCase()} ${req.getUrl()}`));
  });

  return new Promise((resolve, reject) => {
    const { host, port: wanted } = deps.config;
    listenOn(uwsApp, host, wanted, deps.config.serverIndex !== undefined, (token) => {
      if (token === false) {
        reject(new StartupError(`cannot listen on ${host}:${wanted}: the port is taken (another Pairwise server?) or ${host} is not an address of this machine`));
        return;
      }
      const port = uWS.us_socket_local_port(token);
      resolve({
        port,
        app: uwsApp,
        lifecycle,
        routes,
        async close(drainMs = 10_000) {
          uWS.us_listen_socket_close(token);
          await lifecycle.drain(drainMs);
          (uwsApp as unknown as { close(): void }).close();
        },
      });
    });
  });
}
