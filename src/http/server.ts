// The uWS app: every route under /api (and BASE_PATH/api), 405 for known paths with another
// method, 404 for the rest, and a shutdown that stops listening, lets requests finish, then closes.
import uWS from 'uWebSockets.js';
import { AppError, StartupError } from '../errors.js';
import { PREFLIGHT_HEADERS } from './cors.js';
import type { HttpDeps } from './deps.js';
import { Exchange, readRequest } from './exchange.js';
import { Lifecycle } from './lifecycle.js';
import { refuseAmbiguousLength, route, type Handler, type RouteOptions } from './route.js';
import { getDemoImage } from './routes/demo-images.js';
import { DEMO_PAGE_OPTIONS, getDemoCollection, getDemoHome, getDemoProduct, getDemoSignIn } from './routes/demo-pages.js';
import { getHealth, getMetrics } from './routes/operations.js';
import { postEvent, postEventBatch } from './routes/events.js';
import { deleteProduct, getProduct, putProducts } from './routes/products.js';
import { getRecommendations } from './routes/recommendations.js';
import { getStats } from './routes/stats.js';
import { getExperiment, listExperiments, postExperiment, postExperimentAction } from './routes/experiments.js';
import { getWidget } from './routes/widget.js';

type Method = 'get' | 'post' | 'put' | 'del';

interface PathSpec {
  /** Relative to /api, or absolute when `root` is set. */
  path: string;
  root?: boolean;
  /** A storefront path answers CORS preflights. */
  storefront?: boolean;
  methods: Partial<Record<Method, { handler: Handler; options?: RouteOptions }>>;
}

function demoPaths(deps: HttpDeps): PathSpec[] {
  const demo = deps.demo;
  if (demo === undefined) return [];
  const page = (handler: Handler, params = 0) => ({ get: { handler, options: { ...DEMO_PAGE_OPTIONS, params } } });
  return [
    { path: '/demo', root: true, methods: page(getDemoHome(deps, demo)) },
    { path: '/demo/collections/:handle', root: true, methods: page(getDemoCollection(deps, demo), 1) },
    { path: '/demo/products/:handle', root: true, methods: page(getDemoProduct(deps, demo), 1) },
    { path: '/demo/sign-in', root: true, methods: { get: { handler: getDemoSignIn(demo) } } },
  ];
}

function experimentPaths(deps: HttpDeps): PathSpec[] {
  const experiments = deps.experiments;
  if (experiments === undefined) return [];
  const action = (name: 'start' | 'stop' | 'conclude'): PathSpec => ({
    path: `/experiments/:id/${name}`,
    methods: { post: { handler: postExperimentAction(deps, experiments, name), options: { params: 1, async: true } } },
  });
  return [
    { path: '/experiments', methods: { get: { handler: listExperiments(deps, experiments) }, post: { handler: postExperiment(deps, experiments), options: { async: true } } } },
    { path: '/experiments/:id', methods: { get: { handler: getExperiment(deps, experiments), options: { params: 1 } } } },
    action('start'),
    action('stop'),
    action('conclude'),
  ];
}

function paths(deps: HttpDeps): PathSpec[] {
  return [
    { path: '/recommendations', storefront: true, methods: { get: { handler: getRecommendations(deps) } } },
    { path: '/events', storefront: true, methods: { post: { handler: postEvent(deps), options: { async: true } } } },
    { path: '/events/batch', storefront: true, methods: { post: { handler: postEventBatch(deps), options: { async: true } } } },
    { path: '/products', methods: { put: { handler: putProducts(deps), options: { async: true } } } },
    {
      path: '/products/:id',
      methods: {
        get: { handler: getProduct(deps), options: { params: 1 } },
        del: { handler: deleteProduct(deps), options: { params: 1, async: true } },
      },
    },
    { path: '/stats', methods: { get: { handler: getStats(deps) } } },
    ...experimentPaths(deps),
    { path: '/healthz', root: true, methods: { get: { handler: getHealth() } } },
    { path: '/metrics', root: true, methods: { get: { handler: getMetrics(deps) } } },
    { path: '/demo/images/:file', root: true, methods: { get: { handler: getDemoImage(deps), options: { params: 1 } } } },
    { path: '/widget.js', root: true, methods: { get: { handler: getWidget(), options: { headers: ['accept-encoding'] } } } },
    ...demoPaths(deps),
  ];
}

const METHOD_NAMES: Record<Method, string> = { get: 'GET', post: 'POST', put: 'PUT', del: 'DELETE' };

export interface HttpServer {
  readonly port: number;
  readonly app: uWS.TemplatedApp;
  readonly lifecycle: Lifecycle;
  /** Stops listening, waits (≤ drainMs) for requests in flight, closes every connection. */
  close(drainMs?: number): Promise<void>;
}

function register(app: uWS.TemplatedApp, lifecycle: Lifecycle, prefix: string, spec: PathSpec): void {
  const pattern = (spec.root ? '' : prefix + '/api') + spec.path;
  const allowed = Object.keys(spec.methods).map((m) => METHOD_NAMES[m as Method]);
  if (spec.storefront) allowed.push('OPTIONS');
  for (const [method, { handler, options }] of Object.entries(spec.methods)) {
    app[method as Method](pattern, route(lifecycle, handler, options));
  }
  if (spec.storefront) {
    app.options(pattern, route(lifecycle, (exchange) => {
      const origin = exchange.request.origin;
      exchange.noContent(origin === '' ? PREFLIGHT_HEADERS : { ...PREFLIGHT_HEADERS, 'access-control-allow-origin': origin, vary: 'Origin' });
    }));
  }
  const allow = allowed.join(', ');
  app.any(pattern, route(lifecycle, () => {
    throw new AppError('method_not_allowed', `use ${allow}`, undefined, { allow });
  }));
}

/** uSockets' listen option that leaves SO_REUSEPORT off (the typings lack it as a value; the binding exports it as 1). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

type ListenWithOptions = (host: string, port: number, options: number, cb: (token: uWS.us_listen_socket | false) => void) => uWS.TemplatedApp;

/**
 * uWS sets SO_REUSEPORT on a listening socket by default, so a second server on the same port
 * would start silently and take part of the traffic. Listening exclusively makes the second one
 * fail instead. (The typings only declare `listen(port, options, cb)`; the binding also takes
 * `listen(host, port, options, cb)`, as test/http/single-writer.test.ts checks.)
 */
function listenExclusively(app: uWS.TemplatedApp, host: string, port: number, cb: (token: uWS.us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

export function startHttpServer(deps: HttpDeps, extraRoutes?: (app: uWS.TemplatedApp, lifecycle: Lifecycle) => void): Promise<HttpServer> {
  const app = uWS.App();
  const lifecycle = new Lifecycle();
  const prefixes = deps.config.basePath === '' ? [''] : ['', deps.config.basePath];
  for (const spec of paths(deps)) {
    for (const prefix of prefixes) {
      if (spec.root && prefix !== '') continue;
      register(app, lifecycle, prefix, spec);
    }
  }
  extraRoutes?.(app, lifecycle);
  app.any('/*', (res, req) => {
    const exchange = new Exchange(res, readRequest(req));
    if (refuseAmbiguousLength(exchange)) return;
    exchange.problem(new AppError('not_found', `no route for ${req.getMethod().toUpperCase()} ${req.getUrl()}`));
  });

  return new Promise((resolve, reject) => {
    const { host, port: wanted } = deps.config;
    listenExclusively(app, host, wanted, (token) => {
      if (token === false) {
        reject(new StartupError(`cannot listen on ${host}:${wanted}: the port is taken (another Pairwise server?) or ${host} is not an address of this machine`));
        return;
      }
      const port = uWS.us_socket_local_port(token);
      resolve({
        port,
        app,
        lifecycle,
        async close(drainMs = 10_000) {
          uWS.us_listen_socket_close(token);
          await lifecycle.drain(drainMs);
          (app as unknown as { close(): void }).close();
        },
      });
    });
  });
}
