// The one error type of Pairwise and the catalogue of stable error codes, each
// bound to its HTTP status where it is defined (fastify's lib/errors.js model).

export const ERROR_CODES = {
  /** The request's body framing is ambiguous (two Content-Length headers, a Transfer-Encoding other than exactly chunked, or both); its connection is closed. */
  bad_request: 400,
  invalid_json: 400,
  invalid_query: 400,
  invalid_strategy: 400,
  invalid_limit: 400,
  missing_context: 400,
  invalid_event: 400,
  invalid_batch: 400,
  batch_too_large: 400,
  invalid_product: 400,
  /** `filters=`: a malformed filter, an unknown attribute or a value of the wrong kind (the error names the position and what was expected there). */
  invalid_filter: 400,
  /** `diversity=`: not attribute:count, a count past the largest limit, or an attribute the catalog cannot diversify by. */
  invalid_diversity: 400,
  /** GET /api/products: a cursor this service did not hand out (or mangled). */
  invalid_cursor: 400,
  /** POST /api/experiments: a body that is not a valid experiment (every field error listed). */
  invalid_experiment: 400,
  /** PUT /api/rules/{id}: a body that is not a valid rule, or a filter in it that is malformed or names an attribute the catalog lacks (every field error listed, each naming its position and the token expected). */
  invalid_rule: 400,
  /** PUT /api/shop/widgets: a body that is not `{"widgets": [...]}` with at most 64 ids of 1-128 characters. */
  invalid_widgets: 400,
  invalid_recency: 400,
  /** PUT /api/shop/currency: not `{"currency": "<ISO 4217 code>"}`. */
  invalid_currency: 400,
  /** POST /webhooks/…: a signed delivery whose body is not its topic's payload (nothing stored). */
  invalid_webhook: 400,
  /** PUT /api/integrations/…: a body that is not a valid connection (every field error listed). */
  invalid_integration: 400,
  /** `after=` / `Pairwise-After:` that is not a position this deployment acknowledged (malformed, another data dir's, past the shop's log). */
  invalid_position: 400,
  /** WebSocket: a frame that is not one of the protocol's messages (unknown op, wrong fields). */
  invalid_message: 400,
  /** DELETE /api/shop without `confirm=` naming the key's shop. */
  confirmation_required: 400,
  unauthorized: 401,
  /** A customerToken that does not prove its customer (tampered, expired, another shop's or customer's): never a silent downgrade to the session. */
  invalid_customer_token: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** An experiment change its state does not allow (start a concluded one, a second running one on a widget). */
  experiment_conflict: 409,
  /** PUT /api/rules/{id}: a new rule while the shop holds its most rules (100). */
  too_many_rules: 409,
  /** PUT /api/integrations/{platform}: another shop is connected to that store (one store's webhooks feed one shop). */
  integration_taken: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** GET /api/stream without a WebSocket upgrade. */
  upgrade_required: 426,
  /** A rate limit's bucket is empty (http/rate-limits.ts; +Retry-After, RateLimit, RateLimit-Policy), or WebSocket: too many event ops awaiting acks. */
  rate_limited: 429,
  /**
   * An event with the public key names a sessionId the shop holds no state for, and its client address
   * (or the shop's public keys together) already created its share of new sessions this minute (+Retry-After).
   */
  too_many_new_sessions: 429,
  /**
   * The shop's public key has stored its day's budget of events or bytes (PAIRWISE_STOREFRONT_EVENTS_PER_DAY,
   * PAIRWISE_STOREFRONT_MB_PER_DAY): nothing of the write was stored (+Retry-After: until the next day, UTC).
   */
  storefront_quota: 429,
  /** WebSocket: the connection already holds its maximum of live subscriptions. */
  too_many_subscriptions: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem inside a request, located by an RFC 6901 JSON pointer. */
export interface FieldError {
  pointer: string;
  detail: string;
  /** In a parameter written in a small language (filters=): the offset where it goes wrong… */
  position?: number;
  /** …and what was expected there. */
  expected?: string;
}

export class AppError extends Error {
  readonly status: number;
  #body: string | undefined;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: readonly FieldError[],
    /** Extra response headers, e.g. Allow for 405 or Retry-After for 429. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
  }

  /** The problem+json body, serialized once: an error made once and thrown again and again (a 429) costs no JSON per answer. */
  get body(): string {
    return (this.#body ??= problemBody(this));
  }
}

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The body of every error answer (RFC 9457 problem+json, with our stable `code`). */
export interface ProblemBody {
  type: 'about:blank';
  /** The HTTP status's reason phrase. */
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  /** Each problem inside the request, located by a JSON pointer (RFC 6901). */
  errors?: readonly FieldError[];
}

/** The RFC 9457 problem+json body of an error. */
export function problemBody(error: AppError): string {
  const body: ProblemBody = {
    type: 'about:blank',
    title: STATUS_TITLES[error.status] ?? 'Error',
    status: error.status,
    code: error.code,
    detail: error.detail,
    ...(error.errors && error.errors.length > 0 ? { errors: error.errors } : {}),
  };
  return JSON.stringify(body);
}

/**
 * A write the log did not take, as the 503 its caller answers: the log's own refusal as it is (a
 * replicated log without a quorum: with Retry-After), any other failure (a commit the storage
 * refused: a full disk) as `unavailable` saying what `what` could not be stored.
 */
/** A body (or query) refused field by field: the first field error in `detail`, all of them in `errors`. */
export function invalidFields(code: ErrorCode, errors: readonly FieldError[], subject: string): AppError {
  const first = errors[0]!;
  return new AppError(code, `${first.pointer || subject} ${first.detail}`, errors);
}

export function notStored(what: string, cause: unknown): AppError {
  return cause instanceof AppError ? cause : new AppError('unavailable', `${what} could not be stored: ${(cause as Error).message}`);
}

/**
 * The service refuses to start: its data dir is another server's, or its port is taken. Not an
 * HTTP error: main prints the message alone and exits 1.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
