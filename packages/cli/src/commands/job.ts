import type { Context } from '../settings/context.js';
import { failIfUnsuccessful, waitForJob } from '../shared/job-wait.js';
import { printArticle } from '../shared/show-article.js';
import { renderJob } from '../terminal/render.js';

/** Shows a job; with --wait, polls it to its end and exits 3 if it failed. */
export async function jobCommand(ctx: Context, jobId: string, options: { wait?: boolean }): Promise<void> {
  const client = await ctx.client();
  const { isActiveStatus } = await import('@profile-articles/sdk');
  const job = await client.jobs.get(jobId);
  if (!options.wait) {
    if (ctx.out.json) return ctx.out.value(job);
    return ctx.out.line(renderJob(job, ctx.out.style));
  }
  const final = isActiveStatus(job.status)
    ? await waitForJob(ctx, client, job, { label: `Job for ${job.profile_id}` })
    : job;
  failIfUnsuccessful(ctx, final);
  if (ctx.out.json) return ctx.out.value(final);
  if (final.article) await printArticle(ctx, final.article);
  else ctx.out.line(renderJob(final, ctx.out.style));
}
