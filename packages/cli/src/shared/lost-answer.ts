// When a failed call may still have been done by the server: generate, update and `api`'s POST
// then print the Idempotency-Key and the command that sends it again safely.
import type * as Sdk from '@profile-articles/sdk';

type Internal = Pick<typeof import('@profile-articles/sdk/internal'), 'nothingReachedServer'>;

/**
 * The answer was lost, not refused: a connection that broke once the request was out, a time
 * limit, or a 5xx. The SDK's classes come in as `sdk` (the CLI loads the SDK when a command
 * needs it, and its entry may be another bundle than the internal one).
 */
export function answerMayBeLost(error: unknown, sdk: typeof Sdk, internal: Internal): error is Sdk.ApiError {
  return (
    (error instanceof sdk.ConnectionError && !internal.nothingReachedServer(error)) ||
    error instanceof sdk.TimeoutError ||
    (error instanceof sdk.ApiError && error.status >= 500)
  );
}
