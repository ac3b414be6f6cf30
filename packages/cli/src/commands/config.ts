// config set|get|unset <api-key|base-url> [value], config list and config path; each on the
// profile --profile or PROFILE_ARTICLES_PROFILE names, else `default`.

import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { maskKey, SETTING_NAMES, type SettingName } from '../settings/config-store.js';
import type { Context } from '../settings/context.js';
import { checkBaseUrl, originOf } from '../settings/origin.js';
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
  const repoints =
    name === 'base-url' &&
    store.get(profile.name, 'apiKey') !== undefined &&
    (before === undefined || !URL.canParse(before) || originOf(before) !== originOf(value));
  store.set(profile.name, SETTING_NAMES[name], value);
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
  const had = store.get(profile.name, SETTING_NAMES[name]) !== undefined;
  if (had) store.delete(profile.name, SETTING_NAMES[name]);
  if (ctx.out.json) return ctx.out.value({ name, value: null, profile: profile.name });
  ctx.out.line(
    had
      ? `Removed ${name} from the stored config${ofProfile(profile.name)}.`
      : `${name} was not stored${ofProfile(profile.name)}: nothing to remove.`,
  );
}

/** Every stored profile, its key masked, the one in use marked. */
export async function configListCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  const active = (await ctx.activeProfile()).name;
  const profiles = store.profileNames().map((name) => {
    const key = store.get(name, 'apiKey');
    return {
      name,
      active: name === active,
      api_key: key === undefined ? null : maskKey(key),
      base_url: store.get(name, 'baseUrl') ?? null,
    };
  });
  if (ctx.out.json) return ctx.out.value({ profiles });
  if (profiles.length === 0) {
    ctx.out.line('No profile is stored.');
    ctx.out.note(ctx.out.errStyle.dim('Run `profile-articles login` to store one.'));
    return;
  }
  const s = ctx.out.style;
  const width = Math.max(...profiles.map((p) => p.name.length));
  for (const p of profiles) {
    const key = p.api_key ?? s.dim('no key');
    const origin = p.base_url ?? s.dim('no origin');
    ctx.out.line(`${p.active ? '*' : ' '} ${p.name.padEnd(width)}  ${key}  ${origin}`);
  }
}

export async function configPathCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  if (ctx.out.json) return ctx.out.value({ path: store.path });
  ctx.out.line(store.path);
}
