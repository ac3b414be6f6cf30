// Any error → what the user reads (a message and a hint) and what a script reads (an exit code
// and, under --json, one object). Never a stack trace (unless DEBUG is set), never the API key:
// SDK errors do not carry it. Hints fit the command that failed and the status it got.
import { mayHaveActedParts, sentences, wrongBaseUrlHint } from '@profile-articles/sdk/internal';
import { CliError, OutcomeUnknownError } from '../errors/errors.js';
import { ExitCode, type ExitCodeValue } from '../errors/exit-codes.js';
import { isPaidOperation } from '../shell/paid-operation.js';
import { shellQuote } from '../shell/shell-quote.js';
import { plural } from './plural.js';

/** One reported error: the fields of the `{"error": …}` object of --json, and the exit code. */
export interface Report {
  type: string;
  status: number | null;
  /** The server's request id for the answer the error came from: what to quote when asking about it. */
  request_id: string | null;
  message: string;
  detail: unknown;
  hint: string | null;
  attempts: number | null;
  idempotency_key: string | null;
  exitCode: ExitCodeValue;
}

/** What the reporter may know about the run that failed. */
export interface ReportContext {
  /** The command's name as typed: `generate`, `read`, `config set`… */
  command?: string | undefined;
  /** True when the user passed --idempotency-key. */
  keyGiven?: boolean;
  /** Where the key in use came from: a 401's hint says what to fix there. */
  keySource?: 'flag' | 'environment' | 'config' | 'default' | undefined;
  /** The profile the command was given, for hints that name the next command in full. */
  profileId?: string;
  /** The current balance and what the command costs, for a 402; undefined when it cannot be had. */
  balance?: () => Promise<{ credits: number; cost: number | undefined } | undefined>;
}

type Told = Pick<Report, 'message' | 'hint' | 'exitCode'>;

const sentence = (text: string) => {
  const trimmed = text.trim().replace(/[.\s]+$/, '');
  return trimmed ? `${trimmed[0]?.toUpperCase()}${trimmed.slice(1)}.` : '';
};

export async function reportError(error: unknown, context: ReportContext = {}): Promise<Report> {
  const base = { status: null, request_id: null, detail: null, attempts: null, idempotency_key: null };
  if (error instanceof CliError) {
    return {
      ...base,
      type: error.name,
      message: error.message,
      hint: error.hint ?? null,
      exitCode: error.exitCode,
    };
  }
  const retryCommand = error instanceof OutcomeUnknownError ? error.retryCommand : undefined;
  const cause = error instanceof OutcomeUnknownError ? error.cause : error;
  const sdk = await import('@profile-articles/sdk');
  if (!(cause instanceof sdk.ProfileArticlesError)) {
    const message = cause instanceof Error ? cause.message : String(cause);
    return {
      type: 'UnexpectedError',
      status: null,
      request_id: null,
      message: `Unexpected error: ${message}`,
      detail: null,
      hint: 'This is a bug in profile-articles: please report it, with the output of DEBUG=1.',
      attempts: null,
      idempotency_key: null,
      exitCode: ExitCode.Failure,
    };
  }
  const told = await tell(sdk, cause, context);
  const key = cause.idempotencyKey ?? null;
  const hint = retryCommand
    ? `The server may have ${context.command === 'api' ? 'done it' : 'started the job'}. Retry safely, without paying twice: ${retryCommand}`
    : told.hint;
  return {
    type: cause.name,
    status: cause instanceof sdk.ApiError ? cause.status : null,
    request_id: cause.requestId ?? null,
    message: told.message,
    detail: cause instanceof sdk.ApiError ? cause.detail : null,
    hint,
    attempts: cause.attempts ?? null,
    idempotency_key: key,
    exitCode: told.exitCode,
  };
}

async function tell(
  sdk: typeof import('@profile-articles/sdk'),
  error: InstanceType<typeof sdk.ProfileArticlesError>,
  context: ReportContext,
): Promise<Told> {
  const { command } = context;
  const said = error instanceof sdk.ApiError ? sentence(sdk.describeDetail(error.detail)) : '';
  const attempts = error.attempts && error.attempts > 1 ? ` after ${plural(error.attempts, 'attempt')}` : '';
  if (error instanceof sdk.AuthenticationError) {
    return {
      message: sentences('The API key was refused (401).', said),
      hint: command === 'login' ? LOGIN_KEY_REFUSED : keyHint(context.keySource),
      exitCode: ExitCode.Authentication,
    };
  }
  if (error instanceof sdk.InsufficientCreditsError) {
    // The balance, once: the server's own words are in `detail` (--json), and may repeat it.
    const balance = await context.balance?.().catch(() => undefined);
    const needs = balance?.cost === undefined ? '' : `${command} costs ${plural(balance.cost, 'credit')}, `;
    return {
      message:
        balance === undefined
          ? sentences('Not enough credits (402).', said)
          : `Not enough credits (402): ${needs}your balance is ${plural(balance.credits, 'credit')}.`,
      hint: 'Buy credits with `profile-articles buy 100`, then run the command again.',
      exitCode: ExitCode.InsufficientCredits,
    };
  }
  if (error instanceof sdk.ConflictError) {
    return {
      message: sentences('Conflict (409).', said),
      // The interface gives only free text: which conflict it was is told by what was sent, never by parsing it.
      hint: context.keyGiven
        ? 'That idempotency key may belong to another profile or operation: use the key printed for this very command, or leave --idempotency-key out.'
        : 'Wait until the profile’s active job has ended, then try again: a profile runs one job at a time.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.RateLimitError) {
    const wait =
      error.retryAfterSeconds === undefined ? 'a minute' : plural(error.retryAfterSeconds, 'second');
    return {
      message: `Rate limit exceeded (429)${attempts}.`,
      hint: `Come back in ${wait}; \`profile-articles credits\` shows your rate limit.`,
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.JobFailedError) {
    return { message: error.message, hint: 'Its credits were refunded.', exitCode: ExitCode.JobFailed };
  }
  if (error instanceof sdk.NotFoundError) {
    const wrongBaseUrl = wrongBaseUrlHint(error);
    return {
      message: sentences('Not found (404).', said),
      hint: wrongBaseUrl
        ? `${wrongBaseUrl} ${command === 'status' ? ORIGIN_ELSEWHERE : '`profile-articles status` shows where it comes from.'}`
        : notFoundHint(command, context.profileId),
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ValidationError) {
    return {
      message: sentences('The service refused the request (422).', said),
      hint: 'Correct what it names above and run the command again.',
      exitCode: ExitCode.Usage,
    };
  }
  if (error instanceof sdk.BadRequestError) {
    return {
      message: sentences('The service refused the request (400).', said),
      hint:
        command === 'buy'
          ? 'Choose an amount within your purchase range: `profile-articles credits` shows it.'
          : 'Correct the request and run the command again.',
      exitCode: ExitCode.Usage,
    };
  }
  if (error instanceof sdk.CheckoutUnavailableError) {
    return {
      message: sentences(`The payment provider is unavailable (502)${attempts}.`, said),
      hint: 'Nothing was charged: try `profile-articles buy` again in a few minutes.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.PaymentsNotConfiguredError) {
    return {
      message: sentences('Payments are not configured on this service (503).', said),
      hint: 'Ask your operator to add credits to your account.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ApiError) {
    const server = error.status >= 500;
    return {
      message: sentences(`The service answered ${error.status}${attempts}.`, said),
      hint: server ? 'The service had a problem: try again in a minute.' : null,
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ConnectionError) {
    return {
      message: lostAnswer(error, attempts),
      // The SDK names the proxy when the failure was there (HTTPS_PROXY or HTTP_PROXY chose it).
      hint: / the proxy \S+ /.test(error.message)
        ? 'Check the proxy that HTTPS_PROXY or HTTP_PROXY names, or exempt the API origin’s host with NO_PROXY.'
        : command === 'status'
          ? `Is the service up at the origin above? Start it, or ${ORIGIN_ELSEWHERE.replace(/^P/, 'p')}`
          : 'Is the API origin right and the service up? `profile-articles status` shows the origin in use.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.TimeoutError) {
    return {
      message: lostAnswer(error, attempts),
      hint: 'The service is slow or unreachable: try again in a minute.',
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof sdk.ResponseValidationError) {
    // The service said it did the work: a paid command's credits went, whatever the body was.
    const status = error.status ?? 0;
    const paid = command !== undefined && isPaidOperation(command) && status >= 200 && status < 300;
    return {
      message: paid
        ? `${error.message}; the ${command} was charged even so (the service answered ${status}).`
        : error.message,
      hint: 'The service answered in an unexpected shape: is the API origin the Profile Article Service?',
      exitCode: ExitCode.Failure,
    };
  }
  // Raised before any request: the arguments or settings are at fault.
  return {
    message: error.message,
    hint: command ? `Run \`profile-articles ${command} --help\` for usage.` : null,
    exitCode: ExitCode.Usage,
  };
}

/**
 * A connection or time limit's message: what failed and after how many attempts, then, when the
 * request may have reached the server, that it may have acted (the SDK's advice to code about
 * `error.idempotencyKey` left out: the hint gives the command that retries with the key).
 */
function lostAnswer(error: Error, attempts: string): string {
  const parts = mayHaveActedParts(error);
  return parts ? `${parts[0]}${attempts}. ${sentence(parts[1])}` : `${error.message}${attempts}.`;
}

/** `status` already shows the origin in use: its hints say how to change it instead. */
const ORIGIN_ELSEWHERE =
  'Point to another with --base-url URL or `profile-articles config set base-url URL`.';

/** login keeps a key only once the service took it: the hint must not send the person back to itself. */
const LOGIN_KEY_REFUSED =
  'Nothing was saved. Paste the key again exactly as the service gave it, or check that --base-url is the service it belongs to.';

/** A refused key is fixed where it came from: `login` cannot override the environment or a flag. */
function keyHint(source: ReportContext['keySource']): string {
  if (source === 'environment')
    return 'The key comes from PROFILE_ARTICLES_API_KEY: correct it, or unset it to use the key `profile-articles login` stores.';
  if (source === 'flag')
    return 'The key comes from --api-key: check it, or leave it out to use the stored one.';
  return 'Check the key: run `profile-articles login`, or set PROFILE_ARTICLES_API_KEY.';
}

function notFoundHint(command: string | undefined, profileId: string | undefined): string {
  const generate = `\`profile-articles generate ${profileId === undefined ? '<profile_id>' : shellQuote(profileId)}\``;
  if (command === 'read') return `A read never generates: use ${generate}.`;
  if (command === 'api') return 'Check the path: it is below /api/v1 (`profile-articles api GET /credits`).';
  if (command === 'job') return 'Check the job id: `generate` and `update` print it when they start.';
  // An update needs an article to refresh; a generate's 404 means the profile itself is unknown.
  if (command === 'update') return `There is no article to update yet: ${generate} makes one.`;
  if (command === 'generate') return 'The service knows no profile with that id: check the slug.';
  return 'Check the profile slug or job id.';
}
