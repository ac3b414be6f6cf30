// login: the key from a hidden prompt (or piped stdin), checked with a balance call, stored in
// the profile in use (--profile, PROFILE_ARTICLES_PROFILE, `config use`, else `default`) with its
// origin: the key in the system keyring, or in the settings file where none answers or with
// --insecure-storage (stored-key.ts).

import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { originOf } from '../settings/origin.js';
import {
  keyPlace,
  leftInKeyring,
  removeStoredKey,
  saveKey,
  unseenInKeyring,
} from '../settings/stored-key.js';
import { plural } from '../terminal/plural.js';
import { readSecret } from '../terminal/prompt.js';

export async function loginCommand(ctx: Context, opts: { insecureStorage?: boolean } = {}): Promise<void> {
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
    keyPlace(store, profile) !== undefined &&
    URL.canParse(before) &&
    originOf(before) !== originOf(settings.baseUrl)
  ) {
    ctx.warn(
      `Profile "${profile}" was stored for ${before}: its key and origin are replaced (login --profile NAME stores another profile).`,
    );
  }
  // The key is kept with the origin it was checked against, so that it never goes elsewhere.
  const saved = await saveKey(
    store,
    profile,
    settings.baseUrl,
    key,
    ctx.io.env,
    opts.insecureStorage === true,
  );
  // One line: where the key went; a warning (under --json too) when no keyring could be used.
  if (saved.unavailable)
    ctx.warn(
      `No system keyring could be used (${saved.unavailable}), so the key is stored in ${store.path} (readable by you only).`,
    );
  if (out.json)
    return out.value({
      logged_in: true,
      profile,
      base_url: settings.baseUrl,
      credits: balance.credits,
      api_key_in: saved.place,
    });
  const as = profile === 'default' ? '' : ` as profile ${profile}`;
  out.line(
    `${out.style.green('✓')} Logged in to ${settings.baseUrl}${as}: ${plural(balance.credits, 'credit')}.`,
  );
  if (saved.place === 'keyring')
    out.note(
      out.errStyle.dim(
        `The key is stored in the system keyring (service profile-articles, account ${saved.account}).`,
      ),
    );
  else if (!saved.unavailable)
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
  const place = keyPlace(store, profile);
  const { had, left, unseen } = await removeStoredKey(store, profile, ctx.io.env);
  if (left) throw leftInKeyring(left);
  if (unseen) ctx.warn(unseenInKeyring(unseen));
  if (out.json) return out.value({ logged_out: had, profile, api_key_in: place ?? null });
  const of = profile === 'default' ? '' : ` of profile ${profile}`;
  const from =
    place === 'keyring' ? ' from the system keyring' : place === 'file' ? ' from the settings file' : '';
  out.line(had ? `Removed the stored API key${of}${from}.` : `No API key was stored${of}.`);
  // Only a key that was stored may still be in use elsewhere.
  if (had)
    out.note(
      out.errStyle.dim(
        'The key itself is not revoked: ask your operator to revoke it if it may have leaked.',
      ),
    );
}
