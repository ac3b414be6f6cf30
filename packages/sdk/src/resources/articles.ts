import type { ApiPromise } from '../core/api-promise.js';
import { nonNegative } from '../core/arguments.js';
import { callEndpoint } from '../core/endpoint-call.js';
import type { IdempotentRequestOptions, RequestOptions } from '../core/option-types.js';
import type { Transport } from '../core/transport-types.js';
import type { Article, ReadResponse } from '../schemas/article.js';
import { ENDPOINTS, type EndpointName } from '../schemas/endpoints.js';
import type { Job } from '../schemas/job.js';
import { PARENT, type Parented } from '../tracing/tracer.js';
import { checkOnConflict, type OnConflict, sendThroughConflicts } from '../waits/conflict-wait.js';
import { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from '../waits/polling.js';
import type { Jobs } from './jobs.js';

/** `generate` answers a ReadResponse when the article exists, else the started Job. */
export type GenerateResponse = ReadResponse | Job;

export function isJob(value: GenerateResponse): value is Job {
  return typeof (value as Partial<Job>).job_id === 'string';
}

/**
 * Options of `generateAndWait` and `updateAndWait`: the request's, then the wait's. `timeoutMs`
 * bounds each HTTP attempt (polls included); `waitTimeoutMs` bounds the wait for the job.
 */
export type AndWaitOptions = IdempotentRequestOptions &
  Omit<WaitOptions, 'signal' | 'timeoutMs'> & {
    /** Bound on the whole wait for the job, in ms, as `timeoutMs` of `jobs.waitFor`. Default 35 minutes. */
    waitTimeoutMs?: number;
  };

/** Options of `generateAndWait`: those of `updateAndWait`, and what to do when another job is active. */
export type GenerateAndWaitOptions = AndWaitOptions & {
  /**
   * Another job is active for the profile (409). `'wait'` (default): send the same generate
   * again, with the same key, every `intervalMs`, until the article exists (a read's price) or
   * the other job ended without one (this call's generation starts and is waited for), all
   * within `waitTimeoutMs`. Each 409 is free but counts toward the rate limit. `'throw'`:
   * ConflictError at once. With your own `idempotencyKey` a 409 is always thrown: it may mean
   * that the key was used for another request.
   */
  onConflict?: OnConflict;
};

/** The contract-table entry each method calls (see bindings.ts). */
export const ARTICLE_ENDPOINTS = {
  read: 'readArticle',
  generate: 'generateArticle',
  update: 'updateArticle',
} as const satisfies Partial<Record<keyof Articles, EndpointName>>;

export class Articles {
  readonly #transport: Transport;
  readonly #jobs: Jobs;
  /** The client's: between a wait's polls, and its asks again after a 409. */
  readonly #pollIntervalMs: number;

  constructor(transport: Transport, jobs: Jobs, pollIntervalMs: number) {
    this.#transport = transport;
    this.#jobs = jobs;
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** The current article, for 1 credit. Never starts generation: a missing one is NotFoundError, free. */
  read(profileId: string, opts?: RequestOptions): ApiPromise<ReadResponse> {
    return callEndpoint(
      this.#transport,
      ENDPOINTS[ARTICLE_ENDPOINTS.read],
      { params: { profile_id: profileId } },
      opts,
    );
  }

  /**
   * The existing article (ReadResponse, 1 credit) or a started generation (Job, 100 credits reserved).
   * Every attempt of this call carries the same Idempotency-Key, so retries never charge twice.
   */
  generate(profileId: string, opts?: IdempotentRequestOptions): ApiPromise<GenerateResponse> {
    return callEndpoint(
      this.#transport,
      ENDPOINTS[ARTICLE_ENDPOINTS.generate],
      { body: { profile_id: profileId } },
      opts,
    );
  }

  /** Starts a new research run for an existing article, for 100 credits. */
  update(profileId: string, opts?: IdempotentRequestOptions): ApiPromise<Job> {
    return callEndpoint(
      this.#transport,
      ENDPOINTS[ARTICLE_ENDPOINTS.update],
      { params: { profile_id: profileId } },
      opts,
    );
  }

  /**
   * The existing article, or the generated one once its job succeeds. Throws JobFailedError
   * otherwise. Another job active for the profile is waited out (see `onConflict`).
   */
  generateAndWait(profileId: string, opts: GenerateAndWaitOptions = {}): Promise<Article> {
    // A span when tracing, whose children are the requests the wait makes (tracing/hook.ts).
    return this.#transport.wait(
      'articles.generateAndWait',
      opts,
      async (opts) => {
        const wait = waitOptions(opts); // checked before anything is paid for
        const timeoutMs = wait.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
        // One key for every ask, made here, so that a 409 can only mean another job (with the
        // caller's key it may mean the key was used elsewhere, and is thrown), and so that every
        // error of the wait carries it.
        const waitOut = checkOnConflict(opts.onConflict) === 'wait' && opts.idempotencyKey === undefined;
        const request = withKey(opts);
        const send = () => this.generate(profileId, request).withResponse();
        const [{ data, requestId }, waitedMs] = waitOut
          ? await sendThroughConflicts(send, profileId, {
              intervalMs: wait.intervalMs ?? this.#pollIntervalMs,
              timeoutMs,
              signal: opts.signal,
              idempotencyKey: request.idempotencyKey,
            })
          : [await send(), 0];
        if (!isJob(data)) return data.article;
        // The time spent on 409s is part of the wait: waitTimeoutMs bounds both.
        return this.#jobs.waitForArticle(
          data,
          { ...wait, timeoutMs: Math.max(0, timeoutMs - waitedMs) },
          requestId,
          request.idempotencyKey,
        );
      },
      profileId,
    );
  }

  /** Updates the article and resolves to the new version once the job succeeds. */
  updateAndWait(profileId: string, opts: AndWaitOptions = {}): Promise<Article> {
    return this.#transport.wait(
      'articles.updateAndWait',
      opts,
      async (opts) => {
        const wait = waitOptions(opts); // checked before anything is paid for
        const request = withKey(opts);
        const { data, requestId } = await this.update(profileId, request).withResponse();
        return this.#jobs.waitForArticle(data, wait, requestId, request.idempotencyKey);
      },
      profileId,
    );
  }
}

/** The call's options with its key: the caller's, or one made here for every error to carry. */
const withKey = <O extends IdempotentRequestOptions>(opts: O): O & { idempotencyKey: string } => ({
  ...opts,
  idempotencyKey: opts.idempotencyKey ?? crypto.randomUUID(),
});

/** The wait's options, refused (InvalidArgumentError) when out of range. */
function waitOptions(opts: AndWaitOptions & Parented): WaitOptions {
  // The wait's span goes on to the polls.
  const wait: WaitOptions & Parented = { [PARENT]: opts[PARENT] };
  if (opts.signal) wait.signal = opts.signal;
  if (opts.intervalMs !== undefined) wait.intervalMs = nonNegative('intervalMs', opts.intervalMs, 0);
  if (opts.waitTimeoutMs !== undefined) wait.timeoutMs = nonNegative('waitTimeoutMs', opts.waitTimeoutMs, 0);
  if (opts.onPoll) wait.onPoll = opts.onPoll;
  return wait;
}
