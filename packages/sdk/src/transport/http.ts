// The one request function every call goes through: retries with Retry-After or backoff,
// one idempotency key per call, timeouts and a deadline. Single attempts are in attempt.ts.

import { callExtras, checkCallOptions } from '../core/arguments.js';
import type { AttemptInfo, NormalizedOptions, RequestOptions } from '../core/option-types.js';
import type { Answer, RequestSpec, Transport } from '../core/transport-types.js';
import { RateLimitError, TimeoutError } from '../errors/errors.js';
import { safeRequestId } from '../errors/request-id.js';
import { createRedactor } from '../redaction/redact.js';
import { anySignal, sleep, timeoutSignal } from '../retry/abort.js';
import type { Pacer } from '../retry/pacing.js';
import { backoffDelayMs, refusesServerWait, serverWaitMs } from '../retry/retry.js';
import { API_PREFIX } from '../schemas/endpoints.js';
import { traced } from '../tracing/hook.js';
import { createAttempt, mayHaveActed } from './attempt.js';
import { createClientPacer } from './pacing-client.js';
import { createSpend } from './spend.js';

/** A client's transport, with what a client derived from it (`withOptions()`) may share. */
export interface ClientTransport extends Transport {
  /** The spend ledger: `spent` and the `spendLimit` it is held to. */
  readonly spend: ReturnType<typeof createSpend>;
  /** This transport's pacer, for a client with the same key, origin and `pacing`; else undefined. */
  pacerFor(apiKey: string, options: NormalizedOptions): Pacer | undefined;
}

/** What a derived client takes from its original's transport (client.ts, `withOptions()`). */
export interface Inherited {
  parent: ClientTransport;
  /** The derived client was given a `spendLimit`: a budget of its own, else the original's. */
  ownBudget: boolean;
}

/** `keyFrom`: where the key came from (`the apiKey option` or the variable), which a 401 names. */
export function createTransport(
  apiKey: string,
  options: NormalizedOptions,
  keyFrom: string,
  inherited?: Inherited,
): ClientTransport {
  const { hooks, log } = options;
  const redact = createRedactor(apiKey);
  const requestIdOf = (response: Response) => {
    const id = safeRequestId(response);
    return id === undefined ? id : redact.text(id);
  };
  // What this client spent, and its spendLimit: around each paid call and each attempt.
  // A derived client with a budget of its own still knows the prices its original learned.
  const spend =
    inherited && !inherited.ownBudget
      ? inherited.parent.spend
      : createSpend(options.spendLimit, inherited?.parent.spend);
  // A server's keys and job ids are its own, per account: counted per origin and API key.
  const scope = `${options.baseUrl}\n${apiKey}`;
  const attempt = spend.attempts(createAttempt(apiKey, options, redact, requestIdOf, keyFrom), scope);
  // Undefined unless the `pacing` option is on; then every attempt takes a slot of the window first.
  // A derived client with the same key, origin and pacing shares its original's window.
  const pacer =
    inherited?.parent.pacerFor(apiKey, options) ??
    createClientPacer(options, async (spec) => (await request(spec)).data);

  async function request<T>(spec: RequestSpec<T>, call: RequestOptions = {}): Promise<Answer<T>> {
    checkCallOptions(call);
    const extras = callExtras(options, call);
    const url = `${options.baseUrl}${spec.fullPath ? '' : API_PREFIX}${spec.path}`;
    spec.checkUrl?.(url, options.baseUrl);
    const maxRetries = call.maxRetries ?? options.maxRetries;
    const timeoutMs = call.timeoutMs ?? options.timeoutMs;
    const deadlineMs = call.deadlineMs ?? options.deadlineMs;
    const deadlineAt = deadlineMs === undefined ? undefined : Date.now() + deadlineMs;
    let attempts = 0;
    // Whether an attempt so far may have reached the server: a refused connection then no
    // longer means that nothing did.
    let reached = false;
    // Whether an attempt is under way: a deadline that ends it may leave the server acting on it.
    let sending = false;
    // An abort by the deadline rejects with this error; an abort by the caller with the caller's reason.
    const deadlineError = (last?: Error) =>
      new TimeoutError(
        `${spec.method} ${spec.path} ran past its deadline of ${deadlineMs} ms` +
          (last ? `; last error: ${last.message}` : sending || reached ? mayHaveActed(spec) : ''),
        { attempts, idempotencyKey: spec.idempotencyKey, cause: last },
      );
    const deadline =
      deadlineAt === undefined ? undefined : timeoutSignal(deadlineAt - Date.now(), deadlineError);
    const { signal, dispose } = anySignal([call.signal, deadline?.signal]);
    const called = Date.now();
    // `info` hears one line per call, `debug` one per attempt: what it waited, how it ended.
    const took = () => `in ${Date.now() - called} ms (${attempts} attempt${attempts === 1 ? '' : 's'})`;

    try {
      for (let attemptNumber = 1; ; attemptNumber++) {
        attempts = attemptNumber;
        const info: AttemptInfo = {
          method: spec.method,
          url,
          attempt: attemptNumber,
          idempotencyKey: spec.idempotencyKey,
        };
        // The pacer's wait is bounded by the deadline and the caller's signal, never by timeoutMs.
        const queued = Date.now();
        const release = spec.paceExempt ? pacer?.take() : await pacer?.acquire(signal, spec.waitingSince);
        const sent = Date.now();
        // A pacer's hold is said; without a pacer, the clock may still tick while nothing waited.
        const line = () =>
          `${spec.method} ${url} attempt ${attemptNumber}${pacer && sent > queued ? ` (paced ${sent - queued} ms)` : ''}`;
        hooks.onRequest?.(info);
        sending = true;
        const pending = attempt(spec, info, signal, timeoutMs, extras, reached);
        const outcome = await (release ? pending.finally(release) : pending);
        sending = false;
        if (outcome.kind === 'success') {
          log.debug?.(`${line()}: ${outcome.status} in ${Date.now() - sent} ms`);
          log.info?.(`${spec.method} ${url}: ${outcome.status} ${took()}`);
          return outcome.value;
        }
        if (!outcome.notSent) reached = true;

        // The attempt built its error whole: attempts and idempotency key included.
        const { error } = outcome;
        // The server asked for a longer wait than the caller allows: not taken, by this call or the pacer.
        const refused =
          outcome.delayMs !== undefined && refusesServerWait(outcome.delayMs, options.maxRetryDelayMs);
        // A shorter wait than ours (Retry-After: 0) is raised to the floor, for the retry and the pacer.
        const asked = outcome.delayMs === undefined ? undefined : serverWaitMs(outcome.delayMs);
        if (error instanceof RateLimitError) pacer?.rateLimited(refused ? undefined : asked);
        // Refused, the call fails now: its error says how long the server asked (retryAfterSeconds).
        const retry = outcome.retryable && attemptNumber <= maxRetries && !refused;
        const delayMs = Math.round(asked ?? backoffDelayMs(attemptNumber));
        const late = deadlineAt !== undefined && Date.now() + delayMs > deadlineAt;
        log.debug?.(
          `${line()}: ${error.message} in ${Date.now() - sent} ms${retry && !late ? `; retrying in ${delayMs} ms` : ''}`,
        );
        if (!retry) throw error;
        if (late) throw deadlineError(error);
        hooks.onRetry?.({ ...info, delayMs, error });
        spec.retried?.(delayMs);
        await sleep(delayMs, signal);
      }
    } catch (error) {
      log.info?.(`${spec.method} ${url} failed ${took()}: ${(error as Error)?.message ?? error}`);
      throw error;
    } finally {
      dispose();
      deadline?.dispose();
    }
  }

  // Outside the spend ledger, so that a call it refuses is a span too (tracing/hook.ts).
  return {
    ...traced(spend.calls(request, scope), options, redact.text, requestIdOf),
    redact: redact.json,
    requestIdOf,
    spent: spend.spent,
    spend,
    pacerFor: (otherKey, other) =>
      otherKey === apiKey && other.baseUrl === options.baseUrl && other.pacing === options.pacing
        ? pacer
        : undefined,
  };
}
