// The note after a paid answer (read, or generate that read an existing article): what it
// cost and what is left. Shared by commands, so it lives outside commands/.
import type { Context } from '../settings/context.js';
import { plural } from '../terminal/plural.js';

/** "100 credits charged · 900 credits left", for a person; the balance call is free. */
export async function spent(ctx: Context, charged: number): Promise<void> {
  const { out } = ctx;
  if (out.json) return;
  let left = '';
  try {
    const client = await ctx.client();
    left = ` · ${plural((await client.credits.balance({ maxRetries: 0 })).credits, 'credit')} left`;
  } catch {
    // The balance is a courtesy: the work is done and paid for either way.
  }
  out.note(out.errStyle.dim(`${plural(charged, 'credit')} charged${left}`));
}
