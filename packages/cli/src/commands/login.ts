// login: the key from a hidden prompt (or piped stdin), checked with a balance call, stored.
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { readSecret } from '../prompt.js';

export async function loginCommand(ctx: Context): Promise<void> {
  const { out } = ctx;
  const key = (await readSecret(ctx.io, 'API key: ')).trim();
  if (!key)
    throw new CliError(
      'No key was given.',
      ExitCode.Usage,
      'Paste the key at the prompt, or pipe it: echo "$KEY" | profile-articles login',
    );
  const settings = await ctx.settings();
  if (!settings.baseUrl) {
    throw new CliError(
      'No API origin is set.',
      ExitCode.Usage,
      'Run `profile-articles login --base-url URL`.',
    );
  }
  const client = await ctx.client({ apiKey: key });
  const balance = await client.credits.balance();
  const store = await ctx.store();
  store.set('apiKey', key);
  if (settings.sources.baseUrl === 'flag') store.set('baseUrl', settings.baseUrl);
  if (out.json) return out.value({ logged_in: true, base_url: settings.baseUrl, credits: balance.credits });
  out.line(`${out.style.green('✓')} Logged in to ${settings.baseUrl}: ${balance.credits} credits.`);
  out.note(out.errStyle.dim(`The key is stored in ${store.path} (readable by you only).`));
}

export async function logoutCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  const had = store.get('apiKey') !== undefined;
  store.delete('apiKey');
  if (ctx.out.json) return ctx.out.value({ logged_out: had });
  ctx.out.line(had ? 'Removed the stored API key.' : 'No API key was stored.');
  ctx.out.note(
    ctx.out.errStyle.dim(
      'The key itself is not revoked: ask your operator to revoke it if it may have leaked.',
    ),
  );
}
