// login: the key from a hidden prompt (or piped stdin), checked with a balance call, stored.
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { plural } from '../plural.js';
import { readSecret } from '../prompt.js';

export async function loginCommand(ctx: Context): Promise<void> {
  const { out } = ctx;
  // The origin first: asking for a key and then failing for want of an origin wastes the paste.
  const settings = await ctx.settings();
  if (!settings.baseUrl) {
    throw new CliError(
      'No API origin is set.',
      ExitCode.Usage,
      'Run `profile-articles login --base-url URL`.',
    );
  }
  await ctx.warnIfPlainHttp(settings.baseUrl);
  const key = (await readSecret(ctx.io, 'API key: ')).trim();
  if (!key)
    throw new CliError(
      'No key was given.',
      ExitCode.Usage,
      'Paste the key at the prompt, or pipe it: echo "$KEY" | profile-articles login',
    );
  const client = await ctx.clientFor(key);
  const balance = await client.credits.balance();
  const store = await ctx.store();
  store.set('apiKey', key);
  if (settings.sources.baseUrl === 'flag') store.set('baseUrl', settings.baseUrl);
  if (out.json) return out.value({ logged_in: true, base_url: settings.baseUrl, credits: balance.credits });
  out.line(`${out.style.green('✓')} Logged in to ${settings.baseUrl}: ${plural(balance.credits, 'credit')}.`);
  out.note(out.errStyle.dim(`The key is stored in ${store.path} (readable by you only).`));
}

export async function logoutCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  const { out } = ctx;
  if (store.problem !== undefined) {
    // A broken file cannot be edited key by key: start it afresh, which is what logging out means.
    store.reset();
    if (out.json) return out.value({ logged_out: true });
    out.line(`The settings file could not be used (${store.path}); it now holds no settings.`);
    return;
  }
  const had = store.get('apiKey') !== undefined;
  if (had) store.delete('apiKey');
  if (out.json) return out.value({ logged_out: had });
  out.line(had ? 'Removed the stored API key.' : 'No API key was stored.');
  // Only a key that was stored may still be in use elsewhere.
  if (had)
    out.note(
      out.errStyle.dim(
        'The key itself is not revoked: ask your operator to revoke it if it may have leaked.',
      ),
    );
}
