import type { ApiPromise } from '../core/api-promise.js';
import { callEndpoint } from '../core/endpoint-call.js';
import type { RequestOptions } from '../core/option-types.js';
import type { Transport } from '../core/transport-types.js';
import { JobFailedError } from '../errors/errors.js';
import type { Article } from '../schemas/article.js';
import { ENDPOINTS, type EndpointName } from '../schemas/endpoints.js';
import type { Job, TerminalJob } from '../schemas/job.js';
import { parented } from '../tracing/tracer.js';
import { type PollDeps, pollUntilTerminal, type WaitOptions } from '../waits/polling.js';

/** The contract-table entry each method calls (see bindings.ts); `waitFor` polls `get`. */
export const JOB_ENDPOINTS = {
  get: 'getJob',
} as const satisfies Partial<Record<keyof Jobs, EndpointName>>;

/** What a wait takes from the client's options. */
interface WaitSettings {
  /** Between polls, unless a wait says otherwise. */
  pollIntervalMs: number;
  /** A Retry-After longer than this ends the wait (see retry.ts). */
  maxRetryDelayMs: number;
}

export class Jobs {
  readonly #transport: Transport;
  readonly #settings: WaitSettings;

  constructor(transport: Transport, settings: WaitSettings) {
    this.#transport = transport;
    this.#settings = settings;
  }

  /** A job of this account, free. Another account's job is NotFoundError. */
  get(jobId: string, opts?: RequestOptions): ApiPromise<Job> {
    return this.#get(jobId, opts);
  }

  #get(jobId: string, opts?: RequestOptions, waitingSince?: number): ApiPromise<Job> {
    const pacing = waitingSince === undefined ? {} : { waitingSince };
    return callEndpoint(
      this.#transport,
      ENDPOINTS[JOB_ENDPOINTS.get],
      { params: { job_id: jobId } },
      opts,
      pacing,
    );
  }

  /** Polls until the job is `succeeded`, `failed` or `cancelled`, and resolves to that Job. */
  waitFor(jobId: string, opts: WaitOptions = {}): Promise<TerminalJob> {
    // A span when tracing, whose children are the polls (tracing/hook.ts).
    return this.#transport.wait('jobs.waitFor', opts, async (traced) => {
      return (await pollUntilTerminal(jobId, this.#pollDeps(traced), traced)).job;
    });
  }

  /**
   * Waits for a started job and resolves to its article, or throws JobFailedError with the
   * request id of the last poll (or of the answer that started it) and the key that started it.
   */
  async waitForArticle(
    started: Job,
    opts: WaitOptions = {},
    requestId?: string,
    idempotencyKey?: string,
  ): Promise<Article> {
    if (opts.onPoll) opts.onPoll(started);
    const ended = await pollUntilTerminal(
      started.job_id,
      this.#pollDeps(opts),
      opts,
      { job: started, requestId },
      idempotencyKey,
    );
    const { job } = ended;
    if (job.status === 'succeeded' && job.article) return job.article;
    throw new JobFailedError(this.#transport.redact(job), { requestId: ended.requestId, idempotencyKey });
  }

  /** `opts`: the wait's, whose span (when tracing) is each poll's parent. */
  #pollDeps(opts: object): PollDeps {
    return {
      getJob: (id: string, signal: AbortSignal, waitingSince: number) =>
        this.#get(id, parented(opts, signal), waitingSince).withResponse(),
      intervalMs: this.#settings.pollIntervalMs,
      maxRetryDelayMs: this.#settings.maxRetryDelayMs,
      redact: (job: Job) => this.#transport.redact(job),
    };
  }
}
