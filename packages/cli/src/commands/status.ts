// status: what the CLI would use and whether it works: the profile in use and the others stored,
// the origin, the key (masked) and where each came from, the balance and rate limit, the config file. Exit 0 when the key works,
// 4 when it is missing or refused, 2 when no origin is set; everything known is shown first.
import type { BalanceResponse } from '@profile-articles/sdk';
import { maskKey } from '../settings/config-store.js';
import { type Context, missingSettings, PROFILE_FROM } from '../settings/context.js';
import { plural } from '../terminal/plural.js';

export async function statusCommand(ctx: Context): Promise<void> {
  const { out } = ctx;
  const settings = await ctx.settings();
  const store = await ctx.store();
  let balance: BalanceResponse | null = null;
  let failure: unknown;
  if (settings.baseUrl && settings.apiKey) {
    try {
      balance = await (await ctx.client()).credits.balance();
    } catch (error) {
      failure = error;
    }
  }
  const others =
    store.problem === undefined ? store.profileNames().filter((n) => n !== settings.profile.name) : [];
  const shown = {
    profile: settings.profile.name,
    profile_source: settings.profile.source,
    other_profiles: others,
    base_url: settings.baseUrl ?? null,
    base_url_source: settings.sources.baseUrl ?? null,
    api_key: settings.apiKey === undefined ? null : maskKey(settings.apiKey),
    api_key_source: settings.sources.apiKey ?? null,
    /** Where the stored key in use is kept: `keyring` or `file` (null when it is not a stored one). */
    api_key_in: settings.keyPlace ?? null,
    config_path: store.path,
    /** When --profile and PROFILE_ARTICLES_API_KEY are both set: which key won. */
    key_choice: settings.keyChoice ?? null,
    balance,
  };
  if (out.json) out.value(shown);
  else {
    const s = out.style;
    const from = (source: string | null) => (source ? s.dim(` (from ${source})`) : '');
    const profileFrom = shown.profile_source === 'default' ? '' : PROFILE_FROM[shown.profile_source];
    const rows: Array<[string, string]> = [
      [
        'profile',
        `${shown.profile}${profileFrom ? s.dim(` (from ${profileFrom})`) : ''}${others.length ? `; others stored: ${others.join(', ')}` : ''}`,
      ],
      ['origin', shown.base_url ? `${shown.base_url}${from(shown.base_url_source)}` : s.red('not set')],
      [
        'api key',
        shown.api_key
          ? `${shown.api_key}${from(shown.api_key_source)}`
          : settings.keyUnavailable
            ? s.red('in the system keyring, which could not be used')
            : s.red('not set'),
      ],
      ...(shown.api_key_in ? [['key kept in', shown.api_key_in] as [string, string]] : []),
      ...(shown.key_choice ? [['key chosen', shown.key_choice] as [string, string]] : []),
      [
        'balance',
        balance
          ? `${plural(balance.credits, 'credit')}`
          : failure
            ? s.red('unknown: the check failed')
            : s.dim('unknown'),
      ],
      [
        'rate limit',
        balance ? `${plural(balance.pricing.requests_per_minute, 'request')} per minute` : s.dim('unknown'),
      ],
      ['config file', shown.config_path],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [key, value] of rows) out.line(`${s.dim(key.padEnd(width))}  ${value}`);
  }
  if (settings.keyUnavailable && settings.baseUrl) throw settings.keyUnavailable;
  const missing = missingSettings(settings);
  if (missing) throw missing;
  if (failure) throw failure;
}
