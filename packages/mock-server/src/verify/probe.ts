// One HTTP request of a verify run and what came back, raw enough to judge: status,
// content-type, parsed body. A 429 met along the way is checked and its wait honoured.
import type { HttpMethod } from '@profile-articles/sdk/internal';

export interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text. */
  body: unknown;
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

export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

interface ProbeDeps {
  origin: string;
  apiKey: string;
  fetch: typeof fetch;
  /** Waits out a Retry-After or a poll interval; tests move the mock's clock instead. */
  wait: (ms: number) => Promise<void>;
  /** Told about every 429 that was waited out, with its Retry-After as sent. */
  onRateLimited: (endpoint: string, retryAfter: string | null) => void;
}

/** Retry-After as the contract says it: whole seconds. Undefined when absent or malformed. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Waited when a 429 has no usable Retry-After: the rate window is one minute. */
const FALLBACK_WAIT_MS = 60_000;
const MAX_429_RETRIES = 3;

export type Probe = (request: ProbeRequest) => Promise<Answer>;

export function createProbe(deps: ProbeDeps): Probe {
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
    let response: Response;
    try {
      response = await deps.fetch(`${deps.origin}${request.path}`, {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new UnreachableError(`cannot reach ${deps.origin} (${cause})`);
    }
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (contentType.includes('json') && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, contentType, headers: response.headers, body: parsed };
  };

  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const answer = await send(request);
      if (answer.status !== 429 || request.raw429 || attempt >= MAX_429_RETRIES) return answer;
      const header = answer.headers.get('retry-after');
      deps.onRateLimited(request.endpoint, header);
      const seconds = retryAfterSeconds(header);
      await deps.wait(seconds === undefined ? FALLBACK_WAIT_MS : seconds * 1000);
    }
  };
}
