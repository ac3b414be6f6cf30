// config set|get|unset <api-key|base-url> [value], config list, config use and config path; each
// on the profile --profile or PROFILE_ARTICLES_PROFILE names, else the one `config use` chose,
// else `default`.

import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { maskKey, SETTING_NAMES, type SettingName } from '../settings/config-store.js';
import type { Context } from '../settings/context.js';
import { checkBaseUrl, originOf } from '../settings/origin.js';
import {
  keyPlace,
  leftInKeyring,
  moveKeyringEntry,
  readStoredKey,
  removeStoredKey,
  saveKey,
  unseenInKeyring,
} from '../settings/stored-key.js';
import { readSecret } from '../terminal/prompt.js';

function settingName(raw: string): SettingName {
  if (raw in SETTING_NAMES) return raw as SettingName;
  throw new CliError(`Unknown setting "${raw}": use api-key or base-url.`, ExitCode.Usage);
}

/** ` (profile work)` after a sentence about a profile that is not `default`; nothing for it. */
const ofProfile = (name: string) => (name === 'default' ? '' : ` (profile ${name})`);

export async function configSetCommand(
  ctx: Context,
  rawName: string,
  value: string | undefined,
): Promise<void> {
  const name = settingName(rawName);
  const profile = await ctx.activeProfile();
  // A key typed at a hidden prompt stays out of shell history; piped, its first line is read.
  const onCommandLine = Boolean(value);
  if (!value && name === 'api-key') value = (await readSecret(ctx.io, 'API key: ')).trim();
  if (!value) throw new CliError(`config set ${name} needs a value.`, ExitCode.Usage);
  // A key the SDK would refuse at every command is refused now, in its words (never echoing it).
  if (name === 'api-key') (await import('@profile-articles/sdk/internal')).checkApiKey(value);
  if (name === 'base-url') checkBaseUrl(value, 'base-url');
  const store = await ctx.store();
  // The user's choice, and it stands; but said: a stored key goes to its profile's origin, so
  // this re-points the key (with PROFILE_ARTICLES_PROFILE=prod, prod's), which a slip would hide.
  const before = store.get(profile.name, 'baseUrl');
  const place = keyPlace(store, profile.name);
  const repoints =
    name === 'base-url' &&
    place !== undefined &&
    (before === undefined || !URL.canParse(before) || originOf(before) !== originOf(value));
  let unavailable: string | undefined;
  if (name === 'api-key' && before !== undefined && URL.canParse(before)) {
    // Where `login` would keep it: the keyring, named by the profile's origin, else the file.
    unavailable = (await saveKey(store, profile.name, before, value, ctx.io.env, false)).unavailable;
  } else if (name === 'base-url' && place === 'keyring') {
    // The keyring's entry is named by the origin: it moves with it (stored-key.ts).
    await moveKeyringEntry(store, profile.name, value, ctx.io.env);
  } else {
    // A key for a profile with no origin yet stays in the file: no keyring entry can be named.
    store.change(profile.name, {
      [SETTING_NAMES[name]]: value,
      ...(name === 'api-key' ? { apiKeyIn: undefined } : {}),
    });
  }
  if (unavailable)
    ctx.warn(
      `No system keyring could be used (${unavailable}), so the key is stored in ${store.path} (readable by you only).`,
    );
  if (repoints)
    ctx.warn(
      `Profile "${profile.name}" stores a key: that stored key will now be sent to ${originOf(value)} (run \`profile-articles config unset api-key --profile ${profile.name}\` if that is not meant).`,
    );
  const shown = name === 'api-key' ? maskKey(value) : value;
  if (ctx.out.json) return ctx.out.value({ name, value: shown, profile: profile.name });
  ctx.out.line(`Set ${name} to ${shown}${ofProfile(profile.name)}.`);
  if (name === 'api-key' && onCommandLine)
    ctx.out.note(
      ctx.out.errStyle.dim('Tip: `profile-articles login` keeps the key out of your shell history.'),
    );
}

export async function configGetCommand(ctx: Context, rawName: string): Promise<void> {
  const name = settingName(rawName);
  const settings = await ctx.settings();
  const value = name === 'api-key' ? settings.apiKey : settings.baseUrl;
  const source = name === 'api-key' ? settings.sources.apiKey : settings.sources.baseUrl;
  const shown = value === undefined ? null : name === 'api-key' ? maskKey(value) : value;
  const profile = settings.profile.name;
  if (ctx.out.json) return ctx.out.value({ name, value: shown, source: source ?? null, profile });
  if (shown === null)
    throw new CliError(
      `${name} is not set${ofProfile(profile)}.`,
      ExitCode.Failure,
      name === 'api-key'
        ? `Run \`profile-articles login${profile === 'default' ? '' : ` --profile ${profile}`}\`, or set PROFILE_ARTICLES_API_KEY.`
        : 'Run `profile-articles config set base-url URL`, or set PROFILE_ARTICLES_BASE_URL.',
    );
  const from = source === 'config' ? `config, profile ${profile}` : source;
  ctx.out.line(`${shown} ${ctx.out.style.dim(`(from ${from})`)}`);
}

export async function configUnsetCommand(ctx: Context, rawName: string): Promise<void> {
  const name = settingName(rawName);
  const profile = await ctx.activeProfile();
  const store = await ctx.store();
  let had: boolean;
  if (name === 'api-key') {
    const removed = await removeStoredKey(store, profile.name, ctx.io.env);
    if (removed.left) throw leftInKeyring(removed.left);
    if (removed.unseen) ctx.warn(unseenInKeyring(removed.unseen));
    had = removed.had;
  } else {
    if (keyPlace(store, profile.name) === 'keyring')
      throw new CliError(
        `Profile "${profile.name}" keeps its key in the system keyring under its origin, so the origin cannot be removed alone.`,
        ExitCode.Usage,
        `Run \`profile-articles config unset api-key${profile.name === 'default' ? '' : ` --profile ${profile.name}`}\` first, or set another origin with \`config set base-url URL\` (the key moves with it).`,
      );
    had = store.get(profile.name, 'baseUrl') !== undefined;
    if (had) store.delete(profile.name, 'baseUrl');
  }
  if (ctx.out.json) return ctx.out.value({ name, value: null, profile: profile.name });
  ctx.out.line(
    had
      ? `Removed ${name} from the stored config${ofProfile(profile.name)}.`
      : `${name} was not stored${ofProfile(profile.name)}: nothing to remove.`,
  );
}

/** Every stored profile, its key masked and where it is kept, the one in use marked. */
export async function configListCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  const active = (await ctx.activeProfile()).name;
  const profiles: Array<{
    name: string;
    active: boolean;
    api_key: string | null;
    api_key_in: 'keyring' | 'file' | null;
    base_url: string | null;
  }> = [];
  for (const name of store.profileNames()) {
    const place = keyPlace(store, name) ?? null;
    // A key in the keyring is read to show it masked; one the keyring cannot give shows as null.
    const key = await readStoredKey(store, name, ctx.io.env).catch(() => undefined);
    profiles.push({
      name,
      active: name === active,
      api_key: key === undefined ? null : maskKey(key),
      api_key_in: place,
      base_url: store.get(name, 'baseUrl') ?? null,
    });
  }
  if (ctx.out.json) return ctx.out.value({ profiles });
  if (profiles.length === 0) {
    ctx.out.line('No profile is stored.');
    ctx.out.note(ctx.out.errStyle.dim('Run `profile-articles login` to store one.'));
    return;
  }
  const s = ctx.out.style;
  const width = Math.max(...profiles.map((p) => p.name.length));
  for (const p of profiles) {
    const key = p.api_key ?? s.dim(p.api_key_in ? 'unreadable' : 'no key');
    const origin = p.base_url ?? s.dim('no origin');
    const kept = p.api_key_in ? `  ${s.dim(`(key in ${p.api_key_in})`)}` : '';
    ctx.out.line(`${p.active ? '*' : ' '} ${p.name.padEnd(width)}  ${key}  ${origin}${kept}`);
  }
}

/**
 * `config use NAME`: the stored profile later commands use when neither --profile nor
 * PROFILE_ARTICLES_PROFILE names one (as `gh auth switch`). `default` undoes the choice.
 */
export async function configUseCommand(ctx: Context, name: string): Promise<void> {
  const { checkProfileName } = await import('../settings/config-store.js');
  checkProfileName(name, 'config use');
  const store = await ctx.store();
  const names = store.profileNames();
  if (!store.has(name) && name !== 'default')
    throw new CliError(
      `No profile named "${name}" is stored. ${
        names.length === 0
          ? 'No profile is stored yet.'
          : `The stored ${names.length === 1 ? 'profile is' : 'profiles are'} ${names.join(', ')}.`
      }`,
      ExitCode.Usage,
      `\`profile-articles login --profile ${name}\` stores one.`,
    );
  store.choose(name);
  const env = ctx.io.env.PROFILE_ARTICLES_PROFILE;
  // Its value is not echoed: it may be anything, a pasted key among them.
  if (env && env !== name)
    ctx.warn('PROFILE_ARTICLES_PROFILE is set in this shell and names another profile: it still wins there.');
  if (ctx.out.json) return ctx.out.value({ profile: name, base_url: store.get(name, 'baseUrl') ?? null });
  ctx.out.line(
    name === 'default'
      ? 'Commands now use profile default.'
      : `Commands now use profile ${name} unless --profile or PROFILE_ARTICLES_PROFILE names another.`,
  );
}

export async function configPathCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  if (ctx.out.json) return ctx.out.value({ path: store.path });
  ctx.out.line(store.path);
}
