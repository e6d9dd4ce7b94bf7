// What the server registers on its uWS app, as it registers it: the list a test compares with the
// OpenAPI document (uWS itself cannot list its routes).
import type { TemplatedApp } from 'uWebSockets.js';

/** uWS's registration methods (`del` is DELETE, `any` every method, `ws` a WebSocket upgrade). */
const REGISTERING = new Set(['get', 'post', 'put', 'del', 'patch', 'head', 'options', 'connect', 'trace', 'any', 'ws']);

export interface RegisteredRoute {
  /** The uWS method it was registered with: get, post, put, del, options, any, ws, … */
  method: string;
  /** The uWS pattern ('/api/products/:id'). */
  pattern: string;
}

/**
 * `app`, noting each route registered through it in `into`. Everything else goes to the app itself,
 * its methods bound once (uWS's native methods refuse another `this`).
 */
export function recordingApp(app: TemplatedApp, into: RegisteredRoute[]): TemplatedApp {
  const bound = new Map<PropertyKey, unknown>();
  const proxy: TemplatedApp = new Proxy(app, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(name);
      if (method === undefined) {
        const fn = value as (...args: unknown[]) => unknown;
        method = REGISTERING.has(String(name))
          ? (pattern: string, ...rest: unknown[]) => {
              into.push({ method: String(name), pattern });
              fn.call(target, pattern, ...rest);
              return proxy;
            }
          : fn.bind(target);
        bound.set(name, method);
      }
      return method;
    },
  });
  return proxy;
}
