// Turns a non-2xx answer into the matching typed error.
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
import { ErrorBodySchema, type ErrorDetail } from './schemas/error-body.js';

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

const HINT_BY_STATUS: Record<number, string> = {
  401: 'Check the API key (PROFILE_ARTICLES_API_KEY).',
  402: 'Buy credits with credits.checkout(), then retry.',
  409: 'Another job is active for this profile, or the idempotency key was used for another request.',
  429: "Slow down: the client's pacing option keeps its calls within the limit.",
};

/** A `detail` for display: the string, or the validation entries' messages joined. */
export function describeDetail(detail: ErrorDetail): string {
  if (typeof detail === 'string') return detail;
  return detail
    .map((entry) => {
      const loc = entry.loc ? `${entry.loc.join('.')}: ` : '';
      return `${loc}${entry.msg ?? JSON.stringify(entry)}`;
    })
    .join('; ');
}

function parseErrorDetail(body: unknown, status: number, statusText: string): ErrorDetail {
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) return parsed.data.detail;
  return statusText || `HTTP ${status}`;
}

interface ApiErrorSource {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: unknown;
  /** Checkout gives 502 and 503 meanings of their own. */
  isCheckout: boolean;
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
  const detail = isRedirect
    ? redirectDetail(headers)
    : parseErrorDetail(source.body, status, source.statusText);
  const hint = HINT_BY_STATUS[status];
  const message = `${status} ${describeDetail(detail)}${hint ? ` ${hint}` : ''}`;
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
