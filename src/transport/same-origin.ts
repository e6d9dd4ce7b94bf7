// Whether a form post comes from a page of this origin: browsers send Origin on every POST, and one
// that does not name this Host is another site's form (the dashboard's forms, its data changes).
import { AppError } from '../errors.js';
import type { Exchange } from './exchange.js';

/** Throws forbidden unless the request's Origin names its Host (the route reads the `host` header). */
export function checkSameOrigin(exchange: Exchange): void {
  const origin = exchange.request.origin;
  const host = exchange.request.headers?.host ?? '';
  if (origin === '' || origin === 'null' || host === '') throw new AppError('forbidden', 'dashboard forms are accepted only from the dashboard itself');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = '';
  }
  if (originHost !== host) throw new AppError('forbidden', 'dashboard forms are accepted only from the dashboard itself');
}
