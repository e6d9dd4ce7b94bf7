// GET a platform API's JSON with the waits such APIs ask for: a 429 answered with Retry-After
// (seconds) is waited for and made again, as are 5xx answers and network errors (with growing
// waits); any other answer but 200 is a failure waiting cannot fix. Shared by the platforms' clients.

/** Attempts of one request that fails with a 5xx, 429 or network error. */
export const MAX_ATTEMPTS = 8;
const MAX_RETRY_AFTER_S = 60;

/** A failure the sync cannot get past by waiting: the message says what and where. */
export class PlatformApiError extends Error {}

export interface RetryingGetOptions {
  headers: Record<string, string>;
  /** Waits `ms` (tests count the waits instead of taking them). */
  sleep: (ms: number) => Promise<void>;
  fetch: typeof fetch;
  /** Explains a refused status (401, 403, 404) in the platform's terms. */
  hint: (status: number) => string;
  /** Called with each answer's headers (a platform's call-limit pacing). */
  onAnswer?: (headers: Headers) => void;
}

/** Waits the Retry-After of a 429 (seconds, bounded), or 1, 2, 4 … s after a 5xx or a network error. */
function retryAfterMs(header: string | null, attempt: number): number {
  const seconds = header === null ? NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, MAX_RETRY_AFTER_S) * 1000;
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_AFTER_S * 1000);
}

/** The JSON at `url` and the answer's headers; throws PlatformApiError on an answer waiting cannot fix. */
export async function retryingGet(url: string, options: RetryingGetOptions, before?: () => Promise<void>): Promise<{ body: unknown; headers: Headers }> {
  for (let attempt = 0; ; attempt++) {
    await before?.();
    let res: Response;
    try {
      res = await options.fetch(url, { headers: { accept: 'application/json', ...options.headers }, redirect: 'error' });
    } catch (error) {
      if (attempt + 1 >= MAX_ATTEMPTS) throw new PlatformApiError(`GET ${url} failed ${MAX_ATTEMPTS} times: ${causeOf(error)}`);
      await options.sleep(retryAfterMs(null, attempt));
      continue;
    }
    options.onAnswer?.(res.headers);
    if (res.status === 429 || res.status >= 500) {
      await res.arrayBuffer();
      if (attempt + 1 >= MAX_ATTEMPTS) throw new PlatformApiError(`GET ${url} answered ${res.status} ${MAX_ATTEMPTS} times`);
      await options.sleep(retryAfterMs(res.headers.get('retry-after'), attempt));
      continue;
    }
    const text = await res.text();
    if (res.status !== 200) throw new PlatformApiError(`GET ${url} answered ${res.status}: ${options.hint(res.status)}${detailOf(text)}`);
    try {
      return { body: JSON.parse(text), headers: res.headers };
    } catch {
      throw new PlatformApiError(`GET ${url} answered 200 without JSON: is the address that of the platform's API?`);
    }
  }
}

/** The error a platform put in its body ({"errors": …} or {"message": …}), as " (…)". */
function detailOf(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: unknown; message?: unknown };
    const detail = body.errors ?? body.message;
    return detail === undefined ? '' : ` (${typeof detail === 'string' ? detail : JSON.stringify(detail)})`;
  } catch {
    return '';
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
