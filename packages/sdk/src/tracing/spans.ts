// The spans of a client's calls and waits (docs/sdk.md, "Tracing"). A chunk of its own: hook.ts
// imports it only once `@opentelemetry/api` is found, and hands it the API, the key a wait's span
// travels under and the version, so that this chunk imports nothing at run time: a value it
// imported from the client's modules would move them into a chunk of their own, shared with the
// entry, and make the entry two files. What a span holds is named below, attribute by attribute, and
// every string passes the key's redactor: never the key, never a body (only its `profile_id`).
import type * as Api from '@opentelemetry/api';
import type { NormalizedOptions, RequestOptions } from '../core/option-types.js';
import type { Answer, RequestSpec, Transport } from '../core/transport-types.js';
import type { SpendLimitError } from '../errors/errors.js';
import type { TraceArgs, Tracer } from './tracer.js';

/**
 * Each contract-table entry's span name, after `profile_articles.`: the method that calls it.
 * By method and path, not by the table's names: importing anything of the table's module into
 * this chunk made it import the schemas' chunk bare, which a bundler honouring the package's
 * `sideEffects: false` warns of (see tsup.config.ts). spans.test.ts checks both against the table.
 */
export const OPERATIONS: Readonly<Record<string, string>> = {
  'GET /articles/{profile_id}': 'articles.read',
  'POST /articles': 'articles.generate',
  'POST /articles/{profile_id}/update': 'articles.update',
  'GET /jobs/{job_id}': 'jobs.get',
  'GET /credits': 'credits.balance',
  'POST /credits/checkout': 'credits.checkout',
};

type Attributes = Record<string, string | number | undefined>;

/** What an error may say of the call it ended (the SDK's errors say all of it). */
type Said = { name?: unknown; message?: unknown; status?: unknown; requestId?: unknown; attempts?: unknown };

/** By its name, not `instanceof`: the class is the client's (see the top of this file). */
const isSpendLimit = (error: unknown): error is SpendLimitError =>
  (error as Said | undefined)?.name === 'SpendLimitError';

const PROFILE = '{profile_id}';

/**
 * The profile a request is about, where it says: a generate's body, or the path of a read or
 * an update (`/articles/{profile_id}`), decoded.
 */
function profileOf(spec: RequestSpec<unknown>): string | undefined {
  const fromBody = (spec.body as { profile_id?: unknown } | undefined)?.profile_id;
  if (typeof fromBody === 'string') return fromBody;
  const template = spec.endpoint?.path;
  if (!template?.includes(PROFILE)) return undefined;
  const [before = '', after = ''] = template.split(PROFILE);
  const { path } = spec;
  if (!path.startsWith(before) || !path.endsWith(after)) return undefined;
  try {
    return decodeURIComponent(path.slice(before.length, path.length - after.length));
  } catch {
    return undefined;
  }
}

const numberOr = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function createTracer(
  api: typeof Api,
  /** tracer.ts's PARENT. */
  parentKey: symbol,
  version: string,
  /** The table's API_PREFIX, for `url.template`, handed in (see OPERATIONS for why not imported). */
  templatePrefix: string,
  /** The client's request, each call of which is a span. */
  request: Transport['request'],
  options: Pick<NormalizedOptions, 'tracing' | 'baseUrl'>,
  redact: TraceArgs[1],
  requestIdOf: TraceArgs[2],
): Tracer {
  const provider = options.tracing || api.trace.getTracerProvider();
  const tracer = provider.getTracer('@profile-articles/sdk', version) as Api.Tracer;
  // `[::1]` is the address ::1.
  const host = new URL(options.baseUrl).hostname.replace(/^\[(.*)\]$/, '$1');

  /** Only what is known, and every string through the redactor. */
  const clean = (attributes: Attributes): Api.Attributes => {
    const out: Api.Attributes = {};
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== undefined) out[name] = typeof value === 'string' ? redact(value) : value;
    }
    return out;
  };

  /**
   * A span of kind CLIENT, given its attributes once it is known to record: a call without a
   * provider (the API's no-op tracer) then costs only the span's start. A wait's requests are
   * given the wait's span as their parent.
   */
  const start = (name: string, parent: unknown): Api.Span =>
    tracer.startSpan(
      `profile_articles.${name}`,
      { kind: api.SpanKind.CLIENT },
      parent ? api.trace.setSpan(api.context.active(), parent as Api.Span) : undefined,
    );

  /** ERROR, with the error's name and message, redacted; a spend-limit refusal says so in an event. */
  const fail = (span: Api.Span, error: unknown): void => {
    if (isSpendLimit(error)) {
      span.addEvent('spend_limit', {
        limit: error.limit,
        spent: error.spent,
        in_flight: error.inFlight,
        price: error.price,
      });
    }
    const said = (error ?? {}) as Said;
    const name = typeof said.name === 'string' ? said.name : 'Error';
    const message = typeof said.message === 'string' ? said.message : String(error);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: redact(`${name}: ${message}`) });
  };

  /** One call, recorded in `span`. */
  async function record<T>(
    span: Api.Span,
    spec: RequestSpec<T>,
    opts: RequestOptions | undefined,
  ): Promise<Answer<T>> {
    const { endpoint } = spec;
    // Capped: a refused request's profile_id may be any length, and exporters limit attributes.
    const profileId = profileOf(spec)?.slice(0, 128);
    span.setAttributes(
      clean({
        'http.request.method': spec.method,
        'url.template': endpoint && templatePrefix + endpoint.path,
        'server.address': host,
        'profile_articles.idempotency_key': spec.idempotencyKey,
        'profile_articles.profile_id': profileId,
      }),
    );
    let retries = 0;
    const retried = (delayMs: number) => {
      retries++;
      span.addEvent('retry', { delay_ms: delayMs });
    };
    try {
      const answer = await request({ ...spec, retried }, opts);
      // Undefined when handed over unread (asResponse()): then the body's figures are unknown.
      const data = answer.data as { credits_charged?: unknown; profile_id?: unknown } | undefined;
      span.setAttributes(
        clean({
          'http.response.status_code': answer.response.status,
          'profile_articles.request_id': requestIdOf(answer.response),
          'profile_articles.attempts': retries + 1,
          // What this call was charged: a paid call's answer says (a job's figure is not a charge of a poll).
          'profile_articles.credits_charged': spec.price ? numberOr(data?.credits_charged) : undefined,
          'profile_articles.profile_id': profileId ?? stringOr(data?.profile_id),
        }),
      );
      return answer;
    } catch (error) {
      const said = (error ?? {}) as Said;
      span.setAttributes(
        clean({
          'http.response.status_code': numberOr(said.status),
          'profile_articles.request_id': stringOr(said.requestId),
          // A refusal by the spend limit before sending made none; an abort mid-attempt says nothing.
          'profile_articles.attempts':
            numberOr(said.attempts) ?? (isSpendLimit(error) ? 0 : retries ? retries + 1 : undefined),
        }),
      );
      fail(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  return {
    request(spec, opts) {
      const { endpoint } = spec;
      const span = start(
        spec.operation ?? (endpoint && OPERATIONS[`${endpoint.method} ${endpoint.path}`]) ?? 'request',
        (opts as Record<symbol, unknown> | undefined)?.[parentKey],
      );
      if (span.isRecording()) return record(span, spec, opts);
      // Not recorded (no provider registered, or not sampled): the call goes as if untraced.
      span.end();
      return request(spec, opts);
    },
    async wait(name, opts, run, profileId) {
      const span = start(name, (opts as Record<symbol, unknown> | undefined)?.[parentKey]);
      if (!span.isRecording()) {
        span.end();
        return run(opts);
      }
      span.setAttributes(clean({ 'server.address': host, 'profile_articles.profile_id': profileId }));
      try {
        return await run({ ...opts, [parentKey]: span });
      } catch (error) {
        fail(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
