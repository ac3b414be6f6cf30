// api <METHOD> <PATH>: one request as the caller spells it, through the SDK's client.request()
// (the key, retries, an idempotency key on POST, pacing, --verbose), its JSON answer on stdout;
// as `gh api`, with `-H` for a header of the caller's and `-i` for the status line and headers.
import { open } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { ProfileArticles } from '@profile-articles/sdk';
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
  /** `-H 'Name: value'`, each as typed. */
  header?: string[];
  /** `-i`: the status line and the answer's headers before the body. */
  include?: boolean;
}

type Internal = typeof import('@profile-articles/sdk/internal');
type Method = Parameters<ProfileArticles['request']>[0]['method'];

/** What the SDK sets itself, or what would send the key elsewhere: never from -H. */
const OWN_HEADERS = ['authorization', 'idempotency-key', 'content-type', 'host'];
/** An HTTP header's name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;

/**
 * `-H 'Name: value'` as a record of lower-case names (a name given twice: its values joined, as
 * HTTP joins them). A value is never echoed: it may be a token of the caller's.
 */
export function headerFlags(raw: readonly string[]): Record<string, string> | undefined {
  if (raw.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const flag of raw) {
    const at = flag.indexOf(':');
    const name = (at < 0 ? flag : flag.slice(0, at)).trim();
    if (at < 0 || !HEADER_NAME.test(name)) {
      const shown = HEADER_NAME.test(name) ? ` (for ${name})` : '';
      throw new CliError(`-H takes 'Name: value'${shown}.`, ExitCode.Usage);
    }
    const lower = name.toLowerCase();
    if (OWN_HEADERS.includes(lower)) {
      throw new CliError(`-H cannot set ${lower}: the CLI sets it itself.`, ExitCode.Usage);
    }
    // Leading and trailing spaces and tabs are not part of a header's value (RFC 9110 §5.5).
    const value = flag.slice(at + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) {
      throw new CliError(`-H ${lower}: its value holds a character a header cannot carry.`, ExitCode.Usage);
    }
    out[lower] = lower in out ? `${out[lower]}, ${value}` : value;
  }
  return out;
}

/**
 * `-i`'s head, as `gh api -i` prints it: `HTTP/1.1 <status> <reason>`, each header as
 * `name: value` with the key redacted from names and values (a server controls both), then a
 * blank line. Then the body.
 */
function printHead(
  ctx: Context,
  status: number,
  reason: string,
  headers: Iterable<[string, string]>,
  redact: { name(text: string): string; text(text: string): string },
): void {
  ctx.out.line(`HTTP/1.1 ${status} ${redact.text(reason) || (STATUS_CODES[status] ?? '')}`.trimEnd());
  for (const [name, value] of headers) ctx.out.line(`${redact.name(name)}: ${redact.text(value)}`);
  ctx.out.line();
}
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
  const headers = headerFlags(opts.header ?? []);
  const client = await ctx.client();
  const sdk = await import('@profile-articles/sdk');
  // -i's headers through the key redactor; the client refused to start without a key.
  const redact = internal.createRedactor((await ctx.settings()).apiKey ?? '');
  let answer: { data: unknown; response: Response };
  try {
    answer = await client
      .request({
        method: verb,
        path,
        ...(body === undefined ? {} : { body }),
        ...(opts.idempotencyKey === undefined ? {} : { idempotencyKey: opts.idempotencyKey }),
        ...(headers ? { headers } : {}),
      })
      .withResponse();
  } catch (error) {
    // As gh api: a non-2xx answer's JSON body on stdout as it came (--jq filters it), the
    // error line on stderr, the usual exit code. With -i, its status line and headers first.
    const body = internal.rawErrorBody(error);
    if (opts.include && error instanceof sdk.ApiError) {
      // The error's headers were redacted by the SDK; redacted again, they stay as they are.
      const entries = Object.entries(error.headers).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      );
      printHead(ctx, error.status, '', entries, redact);
    }
    if (body !== undefined) ctx.out.value(body);
    // A POST whose answer was lost may have been done: say how to send it again safely, as generate does.
    if (answerMayBeLost(error, sdk, internal) && error.idempotencyKey) {
      throw new OutcomeUnknownError(
        error,
        retryCommand(ctx, verb, rawPath, opts, error.idempotencyKey, redact),
      );
    }
    throw error;
  }
  const { data, response } = answer;
  if (opts.include) printHead(ctx, response.status, response.statusText, response.headers, redact);
  // JSON whether or not --json was given, as gh api prints; --jq filters it.
  ctx.out.value(data ?? null);
}

/** The same request with the key it used: the server answers it as the first, never doing it twice. */
function retryCommand(
  ctx: Context,
  verb: string,
  path: string,
  opts: ApiOptions,
  key: string,
  redact: { text(text: string): string },
): string {
  const parts = [invocation(ctx.io.env, ctx.options.profile), 'api', verb, path];
  for (const field of opts.field ?? []) parts.push('-f', field);
  // A header as typed, but never the key, should one have carried it.
  for (const header of opts.header ?? []) parts.push('-H', redact.text(header));
  if (opts.input !== undefined) parts.push('--input', opts.input);
  parts.push('--idempotency-key', key);
  return parts.map((part, i) => (i === 0 ? part : shellQuote(part))).join(' ');
}
