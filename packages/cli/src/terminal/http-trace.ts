// --verbose: one line on stderr per HTTP attempt, from the SDK's hooks (which never see the key).
// An attempt that is retried carries the wait before the next one on its own line.
import type { AttemptInfo, Hooks } from '@profile-articles/sdk';
import { RETRYABLE_STATUSES } from '@profile-articles/sdk/internal';
import { safeJson, terminalSafe } from '@profile-articles/sdk/internal/terminal';
import type { Io } from './io.js';
import type { Output } from './output.js';

interface Attempt {
  method: string;
  path: string;
  status: number | null;
  /** The answer's request id: what to quote when asking about it. */
  request_id: string | null;
  duration_ms: number | null;
  attempt: number;
  idempotency_key: string | null;
  retry_in_ms: number | null;
  error?: string;
}

function describe(a: Attempt): string {
  const parts = [
    `${a.method} ${a.path}`,
    a.status === null ? `failed: ${terminalSafe(a.error ?? '')}` : `${a.status}`,
    a.request_id === null ? undefined : `request ${terminalSafe(a.request_id)}`,
    a.duration_ms === null ? undefined : `${a.duration_ms} ms`,
    `attempt ${a.attempt}`,
    a.idempotency_key === null ? undefined : `idempotency key ${a.idempotency_key}`,
    a.retry_in_ms === null ? undefined : `retrying in ${(a.retry_in_ms / 1000).toFixed(1)} s`,
  ];
  return `http ${parts.filter(Boolean).join(' · ')}`;
}

/** The hooks to give the SDK, and `flush` for the end of the run (a last line may be pending). */
export interface HttpTrace {
  hooks: Hooks;
  flush: () => void;
}

export function httpTrace(io: Io, out: Output): HttpTrace {
  let pending: Attempt | undefined;
  let timer: NodeJS.Immediate | undefined;
  const write = (a: Attempt) => {
    io.stderr.write(out.jsonOnStderr ? `${safeJson({ http: a })}\n` : `${out.errStyle.dim(describe(a))}\n`);
  };
  const flush = () => {
    if (timer) clearImmediate(timer);
    timer = undefined;
    if (pending) write(pending);
    pending = undefined;
  };
  const base = (info: AttemptInfo): Attempt => {
    const url = new URL(info.url);
    return {
      method: info.method,
      path: `${url.pathname}${url.search}`,
      status: null,
      request_id: null,
      duration_ms: null,
      attempt: info.attempt,
      idempotency_key: info.idempotencyKey ?? null,
      retry_in_ms: null,
    };
  };
  const hooks: Hooks = {
    onResponse: (info) => {
      flush();
      const line = {
        ...base(info),
        status: info.status,
        request_id: info.requestId ?? null,
        duration_ms: info.durationMs,
      };
      // Only the SDK's retryable statuses may be retried: a line for any other is complete now.
      if (!RETRYABLE_STATUSES.has(info.status)) return write(line);
      pending = line;
      // A retry decision follows within the same turn; if none comes, the line stands as it is.
      timer = setImmediate(flush);
    },
    onRetry: (info) => {
      const delay = Math.round(info.delayMs);
      if (pending && pending.attempt === info.attempt) {
        pending.retry_in_ms = delay;
        return flush();
      }
      flush();
      write({ ...base(info), error: info.error.message, retry_in_ms: delay });
    },
  };
  return { hooks, flush };
}
