// api <METHOD> <PATH>: one request as the caller spells it, through the SDK (the key, retries,
// an idempotency key on POST, pacing, --verbose), its JSON answer on stdout; as `gh api`.
import { open } from 'node:fs/promises';
import { CliError, OutcomeUnknownError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { answerMayBeLost } from '../shared/lost-answer.js';
import { invocation } from '../shell/invocation.js';
import { shellQuote } from '../shell/shell-quote.js';

export interface ApiOptions {
  /** `-f key=value`, each as typed. */
  field?: string[];
  input?: string;
  idempotencyKey?: string;
}

type Internal = typeof import('@profile-articles/sdk/internal');
type Method = Parameters<Internal['rawRequest']>[1]['method'];
/** A body from --input is a request, not an upload: past this it is refused unread. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** A method the interface lists for some endpoint (its table is the one list of them). */
function method(raw: string, internal: Internal): Method {
  const methods: string[] = [...new Set(Object.values(internal.ENDPOINTS).map((e) => e.method))];
  const upper = raw.toUpperCase();
  if (methods.includes(upper)) return upper as Method;
  throw new CliError(
    `METHOD must be ${methods.join(' or ')} (all the API answers), got "${raw}".`,
    ExitCode.Usage,
  );
}

/**
 * `/credits` below /api/v1, or `/api/…` as it is; no dot segment in any spelling, which would
 * take the key outside the API's path (the SDK's rule, which it checks again on the URL sent).
 */
function apiPath(raw: string, internal: Internal): string {
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  if (/[\s#\u0000-\u001f\u007f]/.test(path)) {
    throw new CliError('PATH must hold no space, control character or #.', ExitCode.Usage);
  }
  try {
    internal.checkSpelledPath(path);
  } catch (error) {
    throw new CliError(`PATH${(error as Error).message.replace(/^path/, '')}.`, ExitCode.Usage);
  }
  return path;
}

/**
 * `-f key=value`, typed as gh's `-F`: `true`, `false` and `null` become JSON's, a whole number
 * (within what JSON numbers hold exactly) a number; anything else is a string.
 */
export function fieldValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  return text;
}

function fields(raw: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of raw) {
    const at = field.indexOf('=');
    if (at <= 0) throw new CliError(`-f takes key=value, got "${field}".`, ExitCode.Usage);
    // Own properties only: a key named __proto__ is a field like any other.
    Object.defineProperty(out, field.slice(0, at), {
      value: fieldValue(field.slice(at + 1)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The file (or stdin, `-`) as JSON, read up to MAX_INPUT_BYTES; its content is never echoed. */
async function inputBody(ctx: Context, from: string): Promise<unknown> {
  const name = from === '-' ? 'stdin' : from;
  let text = '';
  let bytes = 0;
  const tooLarge = () =>
    new CliError(`--input ${name} is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB.`, ExitCode.Usage);
  try {
    const stream = from === '-' ? ctx.io.stdin : (await open(from)).createReadStream();
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      bytes += buffer.length;
      if (bytes > MAX_INPUT_BYTES) throw tooLarge();
      text += buffer.toString('utf8');
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`Cannot read --input ${name}${code ? ` (${code})` : ''}.`, ExitCode.Usage);
  }
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, which may hold anything: never repeated.
    throw new CliError(`--input ${name} is not valid JSON.`, ExitCode.Usage);
  }
}

export async function apiCommand(
  ctx: Context,
  rawMethod: string,
  rawPath: string,
  opts: ApiOptions,
): Promise<void> {
  const internal = await import('@profile-articles/sdk/internal');
  const verb = method(rawMethod, internal);
  let path = apiPath(rawPath, internal);
  const given = opts.field ?? [];
  if (given.length > 0 && opts.input !== undefined) {
    throw new CliError('Give the body with -f or with --input, not both.', ExitCode.Usage);
  }
  if (opts.idempotencyKey !== undefined && verb !== 'POST') {
    throw new CliError('--idempotency-key goes with POST.', ExitCode.Usage);
  }
  let body: unknown;
  if (opts.input !== undefined) body = await inputBody(ctx, opts.input);
  else if (given.length > 0) {
    const object = fields(given);
    if (verb === 'GET') {
      // As gh does: a GET's fields are its query.
      const query = new URLSearchParams(Object.entries(object).map(([k, v]) => [k, String(v)]));
      path += `${path.includes('?') ? '&' : '?'}${query}`;
    } else body = object;
  }
  if (body !== undefined && verb === 'GET')
    throw new CliError('A GET sends no body: drop --input.', ExitCode.Usage);
  const client = await ctx.client();
  const { rawRequest } = internal;
  const sdk = await import('@profile-articles/sdk');
  let answer: Awaited<ReturnType<typeof rawRequest>>;
  try {
    answer = await rawRequest(client, {
      method: verb,
      path,
      ...(body === undefined ? {} : { body }),
      ...(opts.idempotencyKey === undefined ? {} : { idempotencyKey: opts.idempotencyKey }),
    });
  } catch (error) {
    // As gh api: a non-2xx answer's JSON body on stdout as it came (--jq filters it), the
    // error line on stderr, the usual exit code.
    const body = internal.rawErrorBody(error);
    if (body !== undefined) ctx.out.value(body);
    // A POST whose answer was lost may have been done: say how to send it again safely, as generate does.
    if (answerMayBeLost(error, sdk, internal) && error.idempotencyKey) {
      throw new OutcomeUnknownError(error, retryCommand(ctx, verb, rawPath, opts, error.idempotencyKey));
    }
    throw error;
  }
  // JSON whether or not --json was given, as gh api prints; --jq filters it.
  ctx.out.value(answer.data ?? null);
}

/** The same request with the key it used: the server answers it as the first, never doing it twice. */
function retryCommand(ctx: Context, verb: string, path: string, opts: ApiOptions, key: string): string {
  const parts = [invocation(ctx.io.env, ctx.options.profile), 'api', verb, path];
  for (const field of opts.field ?? []) parts.push('-f', field);
  if (opts.input !== undefined) parts.push('--input', opts.input);
  parts.push('--idempotency-key', key);
  return parts.map((part, i) => (i === 0 ? part : shellQuote(part))).join(' ');
}
