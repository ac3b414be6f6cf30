import type { Context } from '../context.js';
import { renderArticle } from '../render.js';

export async function readCommand(ctx: Context, profileId: string): Promise<void> {
  const client = await ctx.client();
  const answer = await client.articles.read(profileId);
  if (ctx.out.json) return ctx.out.value(answer);
  ctx.out.line(renderArticle(answer.article, ctx.out.style));
  ctx.out.line();
  ctx.out.line(ctx.out.style.dim(`${answer.credits_charged} credit(s) charged`));
}
