// A non-2xx answer turned into its typed error, with the wait the server asked for. Imported by
// attempt.ts only when such an answer arrives: most calls never get one, so its code (the error
// classes picked by status, their messages and hints, the strict Retry-After reading) stays out
// of what an import of the SDK loads (docs/performance.md, "Size").

import type { RequestSpec } from '../core/transport-types.js';
import { createApiError } from '../errors/error-from-answer.js';
import type { ApiError, ErrorContext } from '../errors/errors.js';
import type { Redactor } from '../redaction/redact.js';
import { retryAfterMs } from '../retry/retry-after.js';

/** The headers, with the key out of names as well as values: a server controls both. */
function headersToObject(headers: Headers, redact: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const safeName = redact.name(name);
    // Two names that held the key become one: keep both values, as Headers joins repeats.
    const safeValue = redact.text(value);
    out[safeName] = safeName in out ? `${out[safeName]}, ${safeValue}` : safeValue;
  });
  return out;
}

interface AnswerErrorSource {
  response: Response;
  /** The body as JSON (redacted), or undefined when it is none. */
  body: unknown;
  spec: RequestSpec<unknown>;
  redact: Redactor;
  baseUrl: string;
  keyFrom: string;
  /** Attempts, idempotency key and the answer's request id. */
  context: ErrorContext;
}

/** The answer's error, and the wait its `Retry-After` asked for (in ms), if it asked. */
export function answerError(source: AnswerErrorSource): [error: ApiError, delayMs: number | undefined] {
  const { response, redact, spec } = source;
  const delayMs = retryAfterMs(response.headers);
  const error = createApiError({
    status: response.status,
    statusText: redact.text(response.statusText),
    headers: headersToObject(response.headers, redact),
    body: source.body,
    isCheckout: spec.isCheckout === true,
    answers404: spec.answers404 !== false,
    baseUrl: source.baseUrl,
    keyFrom: source.keyFrom,
    retryAfterSeconds: delayMs === undefined ? undefined : Math.ceil(delayMs / 1000),
    context: source.context,
  });
  return [error, delayMs];
}
