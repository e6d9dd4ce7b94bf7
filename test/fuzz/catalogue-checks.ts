// What every answer of a fuzzed request must look like: no 5xx, a well-formed status line and
// headers, and each error a problem+json (or WebSocket error body) whose code is in the catalogue
// of src/errors.ts with the status that code is bound to.
import { expect } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import { header, type RawResponse } from '../support/raw-http.js';

/** Success statuses some route answers with: 200, 201 (an experiment created), 204 (CORS preflight), 302 (GET / to the demo), 303 (demo and dashboard sign-in), 101 (WebSocket). */
const SUCCESS_STATUSES = new Set([101, 200, 201, 204, 302, 303]);

/** The demo storefront answers an unknown page or product with a page of the shop: the one error that is not problem+json. */
const DEMO_NOT_FOUND_PAGE = 'text/html; charset=utf-8';

export function isCatalogueCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

function expectFieldErrors(errors: unknown, what: string): void {
  if (errors === undefined) return;
  expect(Array.isArray(errors), `${what}: errors must be an array`).toBe(true);
  for (const error of errors as unknown[]) {
    const { pointer, detail } = error as { pointer?: unknown; detail?: unknown };
    expect(typeof pointer === 'string' && (pointer === '' || pointer.startsWith('/')), `${what}: error pointer ${JSON.stringify(pointer)}`).toBe(true);
    expect(typeof detail === 'string' && detail.length > 0, `${what}: error detail`).toBe(true);
  }
}

/**
 * Asserts an HTTP answer keeps the contract; `what` names the request in failure messages. An
 * answer to HEAD has no body to check: its headers are.
 */
export function expectContractAnswer(response: RawResponse, what: string, head = false): void {
  const shown = `${what} → ${response.statusLine}\n${response.body.toString('latin1').slice(0, 500)}`;
  expect(response.status, `status line: ${shown}`).toBeGreaterThanOrEqual(100);
  expect(response.malformedHeaderLines, `malformed header lines: ${shown}`).toEqual([]);
  expect(response.status, `5xx: ${shown}`).toBeLessThan(500);
  if (SUCCESS_STATUSES.has(response.status)) return;
  expect(response.status, `unexpected status: ${shown}`).toBeGreaterThanOrEqual(400);
  if (response.status === 404 && header(response, 'content-type') === DEMO_NOT_FOUND_PAGE) {
    if (!head) expect(response.body.toString('utf8'), `404 page: ${shown}`).toMatch(/^<!doctype html>[^]*We couldn’t find that page/);
    return;
  }
  expect(header(response, 'content-type'), `content type: ${shown}`).toBe('application/problem+json');
  if (head) return;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new Error(`problem body is not JSON: ${shown}`);
  }
  expect(isCatalogueCode(body.code), `code not in the catalogue: ${shown}`).toBe(true);
  expect(ERROR_CODES[body.code as ErrorCode], `status not the one bound to ${String(body.code)}: ${shown}`).toBe(response.status);
  expect(body, shown).toMatchObject({ type: 'about:blank', status: response.status });
  expect(typeof body.title === 'string' && body.title !== 'Error', `title: ${shown}`).toBe(true);
  expect(typeof body.detail === 'string' && body.detail.length > 0, `detail: ${shown}`).toBe(true);
  expectFieldErrors(body.errors, shown);
  // Headers some codes promise (docs/api.md "Errors", RFC 9110).
  // A refused API key challenges for the Bearer key; a refused customer token for a fresh token.
  if (response.status === 401) expect(header(response, 'www-authenticate'), `401 without WWW-Authenticate: ${shown}`).toMatch(body.code === 'invalid_customer_token' ? /^PairwiseCustomerToken/ : /^Bearer /);
  if (response.status === 405) expect(header(response, 'allow'), `405 without Allow: ${shown}`).toBeTruthy();
  if (body.code === 'rate_limited') expect(header(response, 'retry-after'), `429 without Retry-After: ${shown}`).toMatch(/^\d+$/);
}

/** Asserts a WebSocket `{op:"error"}` body: a catalogue code, a detail, well-formed field errors. */
export function expectContractError(error: unknown, what: string): void {
  const shown = `${what}: ${JSON.stringify(error)?.slice(0, 500)}`;
  expect(typeof error === 'object' && error !== null, shown).toBe(true);
  const { code, detail, errors, retryAfterMs } = error as Record<string, unknown>;
  expect(isCatalogueCode(code), `code not in the catalogue: ${shown}`).toBe(true);
  expect(ERROR_CODES[code as ErrorCode], `5xx code: ${shown}`).toBeLessThan(500);
  expect(typeof detail === 'string' && detail.length > 0, `detail: ${shown}`).toBe(true);
  expectFieldErrors(errors, shown);
  if (retryAfterMs !== undefined) expect(Number.isInteger(retryAfterMs) && (retryAfterMs as number) > 0, `retryAfterMs: ${shown}`).toBe(true);
}
