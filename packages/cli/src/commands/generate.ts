// generate and update: start the job, then wait for it with a spinner unless --no-wait.
import type { Context } from '../context.js';
import { renderArticle, renderJob } from '../render.js';
import { parseTimeout, printJobResult, waitForJob } from './wait.js';

export interface JobCommandOptions {
  wait: boolean;
  idempotencyKey?: string;
  timeout?: string;
}

export async function generateCommand(
  ctx: Context,
  profileId: string,
  options: JobCommandOptions,
): Promise<void> {
  await runJobCommand(ctx, profileId, options, 'generate');
}

export async function updateCommand(
  ctx: Context,
  profileId: string,
  options: JobCommandOptions,
): Promise<void> {
  await runJobCommand(ctx, profileId, options, 'update');
}

async function runJobCommand(
  ctx: Context,
  profileId: string,
  options: JobCommandOptions,
  kind: 'generate' | 'update',
): Promise<void> {
  const timeoutMs = parseTimeout(options.timeout);
  const client = await ctx.client();
  const { isJob, isTerminalStatus } = await import('@profile-articles/sdk');
  const { out } = ctx;
  const callOptions = options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {};
  const answer =
    kind === 'generate'
      ? await client.articles.generate(profileId, callOptions)
      : await client.articles.update(profileId, callOptions);

  if (!isJob(answer)) {
    if (out.json) return out.value(answer);
    out.note(
      out.errStyle.dim(
        `The article already exists: ${answer.credits_charged} credit(s) charged for reading it.`,
      ),
    );
    return out.line(renderArticle(answer.article, out.style));
  }
  const terminal = isTerminalStatus(answer.status);
  if (!options.wait && !terminal) {
    if (out.json) return out.value(answer);
    out.line(renderJob(answer, out.style));
    out.note(out.errStyle.dim(`Follow it with: profile-articles job ${answer.job_id} --wait`));
    return;
  }
  out.note(out.errStyle.dim(`Job ${answer.job_id} started: ${answer.credits_charged} credits reserved.`));
  const label = `${kind === 'generate' ? 'Generating' : 'Updating'} ${profileId}`;
  const job = terminal ? answer : await waitForJob(ctx, client, answer, { timeoutMs, label });
  printJobResult(ctx, job);
}
