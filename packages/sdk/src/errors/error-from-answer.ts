// Turns a non-2xx answer into the matching typed error. Loaded only when an answer is not a
// 2xx (transport/answer-error.ts): most calls never need it.

import { ErrorBodySchema, type ErrorDetail } from '../schemas/error-body.js';
import { describeDetail } from './api-errors.js';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  CheckoutUnavailableError,
  ConflictError,
  type ErrorContext,
  InsufficientCreditsError,
  NotFoundError,
  PaymentsNotConfiguredError,
  RateLimitError,
  ServerError,
  type StatusErrorInit,
  ValidationError,
} from './errors.js';
import { sentences, WRONG_BASE_URL } from './sentences.js';

/** The classes whose status is fixed; 429 and checkout's 502/503 are picked below. */
type ApiErrorClass = new (message: string, init: StatusErrorInit) => ApiError;

const CLASS_BY_STATUS: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: InsufficientCreditsError,
  404: NotFoundError,
  409: ConflictError,
  422: ValidationError,
};

/**
 * What to do, in words the server's detail does not use (sentences() drops a repetition anyway).
 * A 401's names where the key came from (see createApiError).
 */
const HINT_BY_STATUS: Record<number, string> = {
  402: 'Buy credits with credits.checkout(), then retry.',
  409: "Retry once the profile's running job has ended; generateAndWait waits for it by itself.",
  429: "Slow down: the client's pacing option keeps its calls within the limit.",
};

/**
 * A 409 for a key used with another request. The contract gives both 409s the same `{detail}`,
 * so only the server's words tell this one (a key the SDK made is never reused: its 409 is
 * always another active job); the mock's and the reference's details name the key.
 */
const KEY_REUSED = 'Pass a new idempotencyKey, or none and the SDK makes one.';

/** 503 from checkout: the server takes no payments, which no retry changes. */
const NO_PAYMENTS = 'Credits cannot be bought on this server: ask its operator to add them to the account.';

/** The body's `detail`, or undefined when the body is not the interface's `{detail}` JSON. */
function parseErrorDetail(body: unknown): ErrorDetail | undefined {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.detail : undefined;
}

interface ApiErrorSource {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: unknown;
  /** Checkout gives 502 and 503 meanings of their own. */
  isCheckout: boolean;
  /** Whether the interface lists a 404 for this endpoint: any other 404 comes from a wrong URL. */
  answers404: boolean;
  /** The client's base URL, named when it looks wrong. */
  baseUrl: string;
  /** Where the key came from, for a 401's hint: `the apiKey option` or `PROFILE_ARTICLES_API_KEY`. */
  keyFrom: string;
  retryAfterSeconds: number | undefined;
  /** Attempts and idempotency key, so the error is built whole. */
  context: ErrorContext;
}

/**
 * A 3xx is never followed (it would re-send the body and Idempotency-Key elsewhere). Its body
 * rarely has a `detail`, so the error's detail says where it led, for whoever prints `detail`.
 */
function redirectDetail(headers: Readonly<Record<string, string>>): string {
  const location = headers.location ?? '(no Location header)';
  return `Redirect to ${location} not followed (the SDK never re-sends a request elsewhere): check baseUrl.`;
}

export function createApiError(source: ApiErrorSource): ApiError {
  const { status, headers, isCheckout } = source;
  const isRedirect = status === 0 || (status >= 300 && status < 400);
  const parsed = isRedirect ? redirectDetail(headers) : parseErrorDetail(source.body);
  const detail = parsed ?? (source.statusText || `HTTP ${status}`);
  // A 404 where the interface has none, or without its {detail} body, is not the API's.
  const said = describeDetail(detail);
  const hint =
    status === 404 && (!source.answers404 || parsed === undefined)
      ? `${WRONG_BASE_URL}: ${source.baseUrl} must be the API's origin alone, such as https://api.example.com.`
      : status === 409 && /\bkey\b/i.test(said)
        ? KEY_REUSED
        : isCheckout && status === 503
          ? NO_PAYMENTS
          : status === 401
            ? `Check the API key (from ${source.keyFrom}).`
            : HINT_BY_STATUS[status];
  const message = `${status} ${sentences(said, hint)}`;
  const init: StatusErrorInit = { ...source.context, detail, headers };

  if (status === 429)
    return new RateLimitError(message, { ...init, retryAfterSeconds: source.retryAfterSeconds });
  if (isCheckout && status === 502) return new CheckoutUnavailableError(message, init);
  if (isCheckout && status === 503) return new PaymentsNotConfiguredError(message, init);
  const ErrorClass = CLASS_BY_STATUS[status];
  if (ErrorClass) return new ErrorClass(message, init);
  return status >= 500
    ? new ServerError(message, { ...init, status })
    : new ApiError(message, { ...init, status });
}
