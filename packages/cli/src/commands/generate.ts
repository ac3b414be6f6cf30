// generate and update: start the job, then wait for it with a spinner unless --no-wait.
import { nothingReachedServer } from '@profile-articles/sdk/internal';
import { OutcomeUnknownError } from '../errors/errors.js';
import type { Context } from '../settings/context.js';
import { spent } from '../shared/charge-note.js';
import { failIfUnsuccessful, parseTimeout, waitForJob } from '../shared/job-wait.js';
import { answerMayBeLost } from '../shared/lost-answer.js';
import { printArticle } from '../shared/show-article.js';
import { invocation } from '../shell/invocation.js';
import { shellQuote } from '../shell/shell-quote.js';
import { plural } from '../terminal/plural.js';
import { renderJob } from '../terminal/render.js';

interface JobCommandOptions {
  wait: boolean;
  idempotencyKey?: string;
  timeout?: string;
}

export function generateCommand(ctx: Context, profileId: string, options: JobCommandOptions) {
  return runJobCommand(ctx, profileId, options, 'generate');
}

export function updateCommand(ctx: Context, profileId: string, options: JobCommandOptions) {
  return runJobCommand(ctx, profileId, options, 'update');
}

/** The same command with the key it used: the API answers with that attempt's job, never a second charge. */
async function retryCommand(
  ctx: Context,
  kind: string,
  profileId: string,
  key: string,
  options: JobCommandOptions,
): Promise<string> {
  const { sources, baseUrl } = await ctx.settings();
  const origin = sources.baseUrl === 'flag' && baseUrl ? ` --base-url ${shellQuote(baseUrl)}` : '';
  // The flags that shape the run, so that the retry behaves as the command did.
  const noWait = options.wait ? '' : ' --no-wait';
  const timeout = options.timeout === undefined ? '' : ` --timeout ${shellQuote(options.timeout)}`;
  return `${invocation(ctx.io.env, ctx.options.profile)} ${kind} ${shellQuote(profileId)} --idempotency-key ${shellQuote(key)}${noWait}${timeout}${origin}`;
}

/**
 * A lost answer (5xx, timeout, broken connection) may hide a started job: say how to retry
 * safely. A refused connection on every attempt reached nothing, so there is nothing to retry.
 */
async function startJob(
  ctx: Context,
  profileId: string,
  options: JobCommandOptions,
  kind: 'generate' | 'update',
) {
  const client = await ctx.client();
  const sdk = await import('@profile-articles/sdk');
  const callOptions = options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {};
  try {
    return kind === 'generate'
      ? await client.articles.generate(profileId, callOptions)
      : await client.articles.update(profileId, callOptions);
  } catch (error) {
    if (answerMayBeLost(error, sdk, { nothingReachedServer }) && error.idempotencyKey) {
      throw new OutcomeUnknownError(
        error,
        await retryCommand(ctx, kind, profileId, error.idempotencyKey, options),
      );
    }
    throw error;
  }
}

async function runJobCommand(
  ctx: Context,
  profileId: string,
  options: JobCommandOptions,
  kind: 'generate' | 'update',
): Promise<void> {
  const timeoutMs = parseTimeout(options.timeout);
  const answer = await startJob(ctx, profileId, options, kind);
  const client = await ctx.client();
  const { isJob, isTerminalStatus } = await import('@profile-articles/sdk');
  const { out } = ctx;

  if (!isJob(answer)) {
    if (out.json) return out.value(answer);
    out.note(out.errStyle.dim('The article already exists: it was read instead.'));
    await printArticle(ctx, answer.article);
    return spent(ctx, answer.credits_charged);
  }
  const terminal = isTerminalStatus(answer.status);
  if (!options.wait && !terminal) {
    if (out.json) return out.value(answer);
    out.line(renderJob(answer, out.style));
    out.note(
      out.errStyle.dim(
        `Follow it with: ${invocation(ctx.io.env, ctx.options.profile)} job ${answer.job_id} --wait`,
      ),
    );
    return;
  }
  out.note(out.errStyle.dim(startedLine(answer.job_id, answer.credits_charged, options.idempotencyKey)));
  const label = `${kind === 'generate' ? 'Generating' : 'Updating'} ${profileId}`;
  const job = terminal ? answer : await waitForJob(ctx, client, answer, { timeoutMs, label });
  failIfUnsuccessful(ctx, job);
  if (out.json) return out.value(job);
  if (job.article) await printArticle(ctx, job.article);
  await spent(ctx, job.credits_charged);
}

/**
 * With a key of the user's, the answer may be a replay of an earlier job, and the API does not
 * say which (a 202 either way while it runs): the line is true in both cases.
 */
function startedLine(jobId: string, credits: number, key: string | undefined): string {
  const reserved = plural(credits, 'credit');
  if (key === undefined) return `Job ${jobId} started: ${reserved} reserved.`;
  return `Job ${jobId}: ${reserved} reserved for key ${key}, once: a key used before answers with its earlier job, at no new charge.`;
}
