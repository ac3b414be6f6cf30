// One HTTP request of a verify run and what came back, raw enough to judge: status,
// content-type, parsed body. Each is bounded by verify's own limits (limits.ts): a time limit
// that covers the body, a body cap, and a cap on the Retry-After of a 429 it waits out. The
// key is scrubbed from the body and the content-type as they are read (the SDK's redactor,
// every spelling a server may echo it in), before a check cuts an excerpt that could end
// inside it; report.ts scrubs the whole report again, headers included.
import {
  createRedactor,
  type HttpMethod,
  type Redactor,
  readBody,
  TIMED_OUT,
} from '@profile-articles/sdk/internal';
import { secondsText, sizeText, type Timer, type VerifyLimits } from './limits.js';

export interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text. */
  body: unknown;
  /** Set when the answer broke a limit of verify's (a body over the cap): what it broke. */
  overLimit?: string;
}

export interface ProbeRequest {
  /** The contract's endpoint this request exercises, for reports. */
  endpoint: string;
  method: HttpMethod;
  path: string;
  /** `key` (the real one, the default), `none` (no Authorization header) or a made-up key. */
  auth?: 'key' | 'none' | { madeUp: string };
  body?: unknown;
  idempotencyKey?: string;
  /** Hand a 429 back instead of waiting it out (the rate-limit check wants to see it). */
  raw429?: boolean;
}

/** The origin cannot be reached, or gave no complete answer within the time limit: the run stops. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

interface ProbeDeps {
  origin: string;
  apiKey: string;
  fetch: typeof fetch;
  /** Waits out a Retry-After or a poll interval; tests move the mock's clock instead. */
  wait: (ms: number) => Promise<void>;
  /** Told about every 429 met (waited out or not), with its Retry-After as sent. */
  onRateLimited: (endpoint: string, retryAfter: string | null) => void;
  limits: VerifyLimits;
  timer: Timer;
}

/** Retry-After as the contract says it: whole seconds. Undefined when absent or malformed. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Waited when a 429 has no usable Retry-After: the rate window is one minute. */
const FALLBACK_WAIT_MS = 60_000;
const MAX_429_RETRIES = 3;

/** How long to wait out a 429: undefined when its Retry-After is above `maxMs` (never waited). */
export function retryWaitMs(header: string | null, maxMs: number): number | undefined {
  const seconds = retryAfterSeconds(header);
  if (seconds === undefined) return FALLBACK_WAIT_MS;
  return seconds * 1000 <= maxMs ? seconds * 1000 : undefined;
}

function parse(text: string, contentType: string, redactor: Redactor): unknown {
  if (!contentType.includes('json') || !text) return redactor.text(text);
  try {
    return redactor.parse(text);
  } catch {
    return redactor.text(text);
  }
}

export type Probe = (request: ProbeRequest) => Promise<Answer>;

export function createProbe(deps: ProbeDeps): Probe {
  const redactor = createRedactor(deps.apiKey);
  const send = async (request: ProbeRequest): Promise<Answer> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = request.auth ?? 'key';
    if (auth === 'key') headers.authorization = `Bearer ${deps.apiKey}`;
    else if (auth !== 'none') headers.authorization = `Bearer ${auth.madeUp}`;
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const { limits } = deps;
    const url = `${deps.origin}${request.path}`;
    const tooSlow = () =>
      new UnreachableError(
        `no complete answer to ${request.method} ${request.path} within ${secondsText(limits.probeTimeoutMs)}`,
      );
    const cannotReach = (error: unknown) => {
      // The system's reason (ECONNREFUSED, ENOTFOUND) or fetch's own ("bad port" for a port
      // fetch never calls), rather than fetch's message, which is always "fetch failed".
      const inner = (error as { cause?: { code?: string; message?: string } }).cause;
      const cause = inner?.code ?? inner?.message ?? (error as Error).message;
      return new UnreachableError(`cannot reach ${deps.origin} (${cause})`);
    };
    // One signal for the whole request: headers and body both count against the limit.
    const controller = new AbortController();
    const cancel = deps.timer(limits.probeTimeoutMs, () => controller.abort(TIMED_OUT));
    try {
      let response: Response;
      try {
        response = await deps.fetch(url, {
          method: request.method,
          headers,
          signal: controller.signal,
          // The contract has no redirects: a 3xx is a difference to report, and following
          // one would send the key wherever the server points.
          redirect: 'manual',
          ...(body === undefined ? {} : { body }),
        });
      } catch (error) {
        throw controller.signal.aborted ? tooSlow() : cannotReach(error);
      }
      const contentType = redactor.text(response.headers.get('content-type') ?? '');
      const answer = { status: response.status, contentType, headers: response.headers };
      let read: Awaited<ReturnType<typeof readBody>>;
      try {
        read = await readBody(response, controller.signal, limits.probeTimeoutMs, limits.maxBodyBytes);
      } catch (error) {
        throw controller.signal.aborted || error === TIMED_OUT ? tooSlow() : cannotReach(error);
      }
      if (read.kind === 'too-large') {
        return { ...answer, body: undefined, overLimit: `a body over ${sizeText(limits.maxBodyBytes)}` };
      }
      return { ...answer, body: parse(read.text, contentType, redactor) };
    } finally {
      cancel();
    }
  };

  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const answer = await send(request);
      if (answer.status !== 429 || request.raw429 || attempt >= MAX_429_RETRIES) return answer;
      const header = answer.headers.get('retry-after');
      deps.onRateLimited(request.endpoint, header);
      const waitMs = retryWaitMs(header, deps.limits.maxRetryAfterMs);
      // A delay above the cap is the server's to ask for, not verify's to grant: the 429
      // goes back to the check at once, and rate-limit.met has already failed it.
      if (waitMs === undefined) return answer;
      await deps.wait(waitMs);
    }
  };
}
