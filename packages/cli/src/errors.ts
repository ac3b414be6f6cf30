// Any error → one line on stderr with a hint, and an exit code. Never a stack trace
// (unless DEBUG is set), never the API key: SDK errors do not carry it.
import type { ProfileArticles } from '@profile-articles/sdk';
import { CliError, ExitCode, type ExitCodeValue } from './exit-codes.js';

export interface Reported {
  message: string;
  hint: string | undefined;
  exitCode: ExitCodeValue;
}

/** Turns an error into what the user sees. `client` lets a 402 show the balance. */
export async function reportError(error: unknown, client?: ProfileArticles): Promise<Reported> {
  if (error instanceof CliError)
    return { message: error.message, hint: error.hint, exitCode: error.exitCode };
  const sdk = await import('@profile-articles/sdk');
  const { describeDetail } = sdk;
  const e = error as Error & { attempts?: number };

  if (error instanceof sdk.AuthenticationError) {
    return {
      message: `The API key was refused (401): ${describeDetail(error.detail)}.`,
      hint: 'Check the key: run `profile-articles login`, or set PROFILE_ARTICLES_API_KEY.',
      exitCode: ExitCode.Authentication,
    };
  }
  if (error instanceof sdk.InsufficientCreditsError) {
    let balance = '';
    try {
      if (client)
        balance = ` Your balance is ${(await client.credits.balance({ maxRetries: 0 })).credits} credits.`;
    } catch {
      // The balance is a courtesy; the error stands without it.
    }
    return {
      message: `Not enough credits (402): ${describeDetail(error.detail)}.${balance}`,
      hint: 'Buy credits with `profile-articles buy 100`, then try again.',
      exitCode: ExitCode.InsufficientCredits,
    };
  }
  if (error instanceof sdk.ConflictError) {
    return {
      message: `Conflict (409): ${describeDetail(error.detail)}.`,
      hint: 'Another job may be active for this profile: try again once it has finished.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.RateLimitError) {
    const wait = error.retryAfterSeconds === undefined ? 'a minute' : `${error.retryAfterSeconds} s`;
    return {
      message: `Rate limit exceeded (429) after ${e.attempts ?? 1} attempt(s).`,
      hint: `Come back in ${wait}.`,
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.JobFailedError) {
    return { message: error.message, hint: 'Its credits were refunded.', exitCode: ExitCode.JobFailed };
  }
  if (error instanceof sdk.NotFoundError) {
    return {
      message: `Not found (404): ${describeDetail(error.detail)}.`,
      hint: 'Check the profile slug or job id; a read never generates: use `profile-articles generate <profile_id>`.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ApiError) {
    return {
      message: `${error.status}: ${describeDetail(error.detail)}.`,
      hint: undefined,
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ConnectionError) {
    return {
      message: error.message,
      hint: 'Is the API origin right? See `profile-articles config get base-url`.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ProfileArticlesError) {
    // Raised before any request: the arguments or settings are at fault.
    const usage = !(error instanceof sdk.TimeoutError) && !(error instanceof sdk.ResponseValidationError);
    return { message: error.message, hint: undefined, exitCode: usage ? ExitCode.Usage : ExitCode.Failure };
  }
  return {
    message: `Unexpected error: ${e?.message ?? String(error)}`,
    hint: 'Set DEBUG=1 for details.',
    exitCode: ExitCode.Failure,
  };
}
