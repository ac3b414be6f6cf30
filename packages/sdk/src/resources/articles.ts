import { ProfileArticlesError } from '../errors.js';
import type { ParseResult, Transport } from '../http.js';
import type { RequestOptions } from '../options.js';
import type { WaitOptions } from '../polling.js';
import { type Article, type ReadResponse, ReadResponseSchema } from '../schemas/article.js';
import { type Job, JobSchema } from '../schemas/job.js';
import type { Jobs } from './jobs.js';

/** `generate` answers a ReadResponse when the article exists, else the started Job. */
export type GenerateResponse = ReadResponse | Job;

export function isJob(value: GenerateResponse): value is Job {
  return typeof (value as Partial<Job>).job_id === 'string';
}

const parseGenerateResponse = (body: unknown): ParseResult<GenerateResponse> =>
  body !== null && typeof body === 'object' && 'job_id' in body
    ? JobSchema.safeParse(body)
    : ReadResponseSchema.safeParse(body);

function profilePath(profileId: string): string {
  if (typeof profileId !== 'string' || profileId.length < 1 || profileId.length > 200) {
    throw new ProfileArticlesError('profileId must be a string of 1 to 200 characters');
  }
  return `/articles/${encodeURIComponent(profileId)}`;
}

export type AndWaitOptions = RequestOptions &
  Omit<WaitOptions, 'signal' | 'timeoutMs'> & {
    /** Bound on the wait for the job, as in `jobs.waitFor`. */
    waitTimeoutMs?: number;
  };

export class Articles {
  readonly #transport: Transport;
  readonly #jobs: Jobs;

  constructor(transport: Transport, jobs: Jobs) {
    this.#transport = transport;
    this.#jobs = jobs;
  }

  /** The current article, for 1 credit. Never starts generation: a missing one is NotFoundError, free. */
  read(profileId: string, opts?: RequestOptions): Promise<ReadResponse> {
    const path = profilePath(profileId);
    return this.#transport.request(
      { method: 'GET', path, policy: 'idempotent', parse: (b) => ReadResponseSchema.safeParse(b) },
      opts,
    );
  }

  /**
   * The existing article (ReadResponse, 1 credit) or a started generation (Job, 100 credits reserved).
   * Every attempt of this call carries the same Idempotency-Key, so retries never charge twice.
   */
  generate(profileId: string, opts: RequestOptions = {}): Promise<GenerateResponse> {
    profilePath(profileId);
    return this.#transport.request(
      {
        method: 'POST',
        path: '/articles',
        body: { profile_id: profileId },
        idempotencyKey: opts.idempotencyKey ?? crypto.randomUUID(),
        policy: 'idempotent',
        parse: parseGenerateResponse,
      },
      opts,
    );
  }

  /** Starts a new research run for an existing article, for 100 credits. */
  update(profileId: string, opts: RequestOptions = {}): Promise<Job> {
    const path = `${profilePath(profileId)}/update`;
    return this.#transport.request(
      {
        method: 'POST',
        path,
        idempotencyKey: opts.idempotencyKey ?? crypto.randomUUID(),
        policy: 'idempotent',
        parse: (b) => JobSchema.safeParse(b),
      },
      opts,
    );
  }

  /** The existing article, or the generated one once its job succeeds. Throws JobFailedError otherwise. */
  async generateAndWait(profileId: string, opts: AndWaitOptions = {}): Promise<Article> {
    const answer = await this.generate(profileId, opts);
    if (!isJob(answer)) return answer.article;
    return this.#jobs.waitForArticle(answer, waitOptions(opts));
  }

  /** Updates the article and resolves to the new version once the job succeeds. */
  async updateAndWait(profileId: string, opts: AndWaitOptions = {}): Promise<Article> {
    const job = await this.update(profileId, opts);
    return this.#jobs.waitForArticle(job, waitOptions(opts));
  }
}

function waitOptions(opts: AndWaitOptions): WaitOptions {
  const wait: WaitOptions = {};
  if (opts.signal) wait.signal = opts.signal;
  if (opts.intervalMs !== undefined) wait.intervalMs = opts.intervalMs;
  if (opts.waitTimeoutMs !== undefined) wait.timeoutMs = opts.waitTimeoutMs;
  if (opts.onPoll) wait.onPoll = opts.onPoll;
  return wait;
}
