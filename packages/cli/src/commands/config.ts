// config set|get|unset <api-key|base-url> [value], and config path.
import { maskKey, SETTING_NAMES, type SettingName } from '../config-store.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { readSecret } from '../prompt.js';

function settingName(raw: string): SettingName {
  if (raw in SETTING_NAMES) return raw as SettingName;
  throw new CliError(`Unknown setting "${raw}": use api-key or base-url.`, ExitCode.Usage);
}

export async function configSetCommand(
  ctx: Context,
  rawName: string,
  value: string | undefined,
): Promise<void> {
  const name = settingName(rawName);
  // A key typed at a hidden prompt stays out of shell history; piped, its first line is read.
  const onCommandLine = Boolean(value);
  if (!value && name === 'api-key') value = (await readSecret(ctx.io, 'API key: ')).trim();
  if (!value) throw new CliError(`config set ${name} needs a value.`, ExitCode.Usage);
  // A key the SDK would refuse at every command is refused now, in its words (never echoing it).
  if (name === 'api-key') (await import('@profile-articles/sdk/internal')).checkApiKey(value);
  if (name === 'base-url' && !/^https?:\/\/\S+$/.test(value)) {
    throw new CliError(`base-url must be an http(s) URL, got "${value}".`, ExitCode.Usage);
  }
  const store = await ctx.store();
  store.set(SETTING_NAMES[name], value);
  const shown = name === 'api-key' ? maskKey(value) : value;
  if (ctx.out.json) return ctx.out.value({ name, value: shown });
  ctx.out.line(`Set ${name} to ${shown}.`);
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
  if (ctx.out.json) return ctx.out.value({ name, value: shown, source: source ?? null });
  if (shown === null)
    throw new CliError(
      `${name} is not set.`,
      ExitCode.Failure,
      name === 'api-key'
        ? 'Run `profile-articles login`, or set PROFILE_ARTICLES_API_KEY.'
        : 'Run `profile-articles config set base-url URL`, or set PROFILE_ARTICLES_BASE_URL.',
    );
  ctx.out.line(`${shown} ${ctx.out.style.dim(`(from ${source})`)}`);
}

export async function configUnsetCommand(ctx: Context, rawName: string): Promise<void> {
  const name = settingName(rawName);
  const store = await ctx.store();
  const had = store.get(SETTING_NAMES[name]) !== undefined;
  if (had) store.delete(SETTING_NAMES[name]);
  if (ctx.out.json) return ctx.out.value({ name, value: null });
  ctx.out.line(
    had ? `Removed ${name} from the stored config.` : `${name} was not stored: nothing to remove.`,
  );
}

export async function configPathCommand(ctx: Context): Promise<void> {
  const store = await ctx.store();
  if (ctx.out.json) return ctx.out.value({ path: store.path });
  ctx.out.line(store.path);
}
