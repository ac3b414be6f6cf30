import { spent } from '../charge-note.js';
import type { Context } from '../context.js';
import { printArticle } from '../show-article.js';

export async function readCommand(ctx: Context, profileId: string): Promise<void> {
  const client = await ctx.client();
  const answer = await client.articles.read(profileId);
  if (ctx.out.json) return ctx.out.value(answer);
  await printArticle(ctx, answer.article);
  await spent(ctx, answer.credits_charged);
}
