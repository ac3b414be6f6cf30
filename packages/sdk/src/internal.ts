// @profile-articles/sdk/internal: what the mock server, the CLI and the repository's scripts
// share with the SDK (the contract table, the retry rule, the capped body read, the API key's
// rule and its redactor, the characters that show nothing). Not public: it may change in any
// release, without a major version. Customers import `@profile-articles/sdk`. Server text made
// safe for a terminal and for JSON output is ./internal/terminal (terminal.ts), which a bin can
// load without the schemas.

import { WRONG_BASE_URL } from './errors/sentences.js';
import { KEY_ADVICE, MAY_HAVE_ACTED, NOTHING_REACHED } from './transport/attempt.js';

export { checkApiKey, MIN_API_KEY_LENGTH } from './core/arguments.js';
export { defaultOptions } from './core/defaults.js';
export { plainHttpWarning } from './core/log.js';
export { rawErrorBody } from './core/raw-request.js';
export { checkSpelledPath } from './core/request-path.js';
export { USER_AGENT_PREFIX } from './core/user-agent.js';
export { sentences } from './errors/sentences.js';
export { CONTROL_CLASS, DEFAULT_IGNORABLE_CLASS } from './redaction/invisible.js';
export { createRedactor, type Redactor } from './redaction/redact.js';
export { RESOURCE_ENDPOINTS } from './resources/bindings.js';
export { RETRYABLE_STATUSES } from './retry/retry.js';
export * from './schemas/endpoints.js';
export { identifierBounds } from './schemas/identifier-bounds.js';
export { MAX_RESPONSE_BYTES, readBody } from './transport/read-body.js';
export { TIMED_OUT } from './transport/timed-send.js';

// What an SDK error's message says, for the CLI's hints: it sees the error class of the public
// entry, which may be another bundle than this one, so it reads the message the SDK wrote.
/** A ConnectionError of a call none of whose attempts reached the server: nothing was charged. */
export const nothingReachedServer = (error: Error) => error.message.endsWith(`; ${NOTHING_REACHED}`);
/** Of a 404 the API never gives (see error-from-answer.ts), the SDK's sentence about the base URL. */
export const wrongBaseUrlHint = (error: Error): string | undefined => {
  const at = error.message.lastIndexOf(WRONG_BASE_URL);
  return at < 0 ? undefined : error.message.slice(at);
};
/**
 * Of a call whose request may have reached the server, the SDK's message split in two: what
 * failed, and that the server may have acted (with a checkout's note), without the SDK's advice
 * about `error.idempotencyKey`, which is for code. Undefined when the message does not say so.
 */
export const mayHaveActedParts = (error: Error): [failed: string, acted: string] | undefined => {
  const at = error.message.indexOf(MAY_HAVE_ACTED);
  return at < 0
    ? undefined
    : [error.message.slice(0, at), error.message.slice(at + 2).replace(KEY_ADVICE, '')];
};
