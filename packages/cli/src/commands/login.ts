// login: the key from a hidden prompt (or piped stdin), checked with a balance call, stored in
// the profile in use (--profile, PROFILE_ARTICLES_PROFILE, else `default`) with its origin.

import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { originOf } from '../settings/origin.js';
import { plural } from '../terminal/plural.js';
import { readSecret } from '../terminal/prompt.js';

export async function loginCommand(ctx: Context): Promise<void> {
  const { out } = ctx;
  // The origin first: asking for a key and then failing for want of an origin wastes the paste.
  const settings = await ctx.settings();
  const profile = settings.profile.name;
  const named = profile === 'default' ? '' : ` --profile ${profile}`;
  if (!settings.baseUrl) {
    throw new CliError(
      'No API origin is set.',
      ExitCode.Usage,
      `Run \`profile-articles login${named} --base-url URL\`.`,
    );
  }
  await ctx.warnIfPlainHttp(settings.baseUrl);
  const key = (await readSecret(ctx.io, 'API key: ')).trim();
  if (!key)
    throw new CliError(
      'No key was given.',
      ExitCode.Usage,
      `Paste the key at the prompt, or pipe it: echo "$KEY" | profile-articles login${named}`,
    );
  const client = await ctx.clientFor(key);
  const balance = await client.credits.balance();
  const store = await ctx.store();
  // Said, not silent: a login with the mock's URL exported replaced the default profile's key.
  const before = store.get(profile, 'baseUrl');
  if (
    before !== undefined &&
    store.get(profile, 'apiKey') !== undefined &&
    URL.canParse(before) &&
    originOf(before) !== originOf(settings.baseUrl)
  ) {
    ctx.warn(
      `Profile "${profile}" was stored for ${before}: its key and origin are replaced (login --profile NAME stores another profile).`,
    );
  }
  store.set(profile, 'apiKey', key);
  // The key is kept with the origin it was checked against, so that it never goes elsewhere.
  if (settings.sources.baseUrl !== 'config') store.set(profile, 'baseUrl', settings.baseUrl);
  if (out.json)
    return out.value({ logged_in: true, profile, base_url: settings.baseUrl, credits: balance.credits });
  const as = profile === 'default' ? '' : ` as profile ${profile}`;
  out.line(
    `${out.style.green('✓')} Logged in to ${settings.baseUrl}${as}: ${plural(balance.credits, 'credit')}.`,
  );
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
  const profile = (await ctx.activeProfile()).name;
  const had = store.get(profile, 'apiKey') !== undefined;
  if (had) store.delete(profile, 'apiKey');
  if (out.json) return out.value({ logged_out: had, profile });
  const of = profile === 'default' ? '' : ` of profile ${profile}`;
  out.line(had ? `Removed the stored API key${of}.` : `No API key was stored${of}.`);
  // Only a key that was stored may still be in use elsewhere.
  if (had)
    out.note(
      out.errStyle.dim(
        'The key itself is not revoked: ask your operator to revoke it if it may have leaked.',
      ),
    );
}
