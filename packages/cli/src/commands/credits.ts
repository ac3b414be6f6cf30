import type { Context } from '../settings/context.js';
import { renderBalance } from '../terminal/render.js';

export async function creditsCommand(ctx: Context): Promise<void> {
  const client = await ctx.client();
  const balance = await client.credits.balance();
  if (ctx.out.json) return ctx.out.value(balance);
  ctx.out.line(renderBalance(balance, ctx.out.style));
}
