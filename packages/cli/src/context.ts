// Settings for a run (flag > environment > stored config) and the SDK client built from them.
// The SDK and conf load only when a command needs them, so --help stays fast.
import type { ClientOptions, ProfileArticles } from '@profile-articles/sdk';
import type { ConfigStore } from './config-store.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { Io } from './io.js';
import { Output } from './output.js';

export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  json?: boolean;
  pollInterval?: string;
}

export type SettingSource = 'flag' | 'environment' | 'config' | 'default';

export interface Settings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  pollIntervalMs: number;
  sources: { apiKey: SettingSource | undefined; baseUrl: SettingSource | undefined };
}

export const DEFAULT_POLL_INTERVAL_SECONDS = 10;
export const CLI_MAX_RETRY_DELAY_MS = 10_000;

function pollIntervalMs(raw: string | undefined, from: string): number {
  if (raw === undefined || raw === '') return DEFAULT_POLL_INTERVAL_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new CliError(`${from} must be a number of seconds, got "${raw}"`, ExitCode.Usage);
  }
  return Math.round(seconds * 1000);
}

export class Context {
  readonly io: Io;
  readonly options: GlobalOptions;
  readonly out: Output;
  #store: Promise<ConfigStore> | undefined;
  /** The client this run made, if any: error reports use it to show the balance. */
  createdClient: ProfileArticles | undefined;

  constructor(io: Io, options: GlobalOptions) {
    this.io = io;
    this.options = options;
    this.out = new Output(io, options.json === true);
  }

  store(): Promise<ConfigStore> {
    this.#store ??= import('./config-store.js').then((m) => m.openConfigStore(this.io.env));
    return this.#store;
  }

  async settings(): Promise<Settings> {
    const { env } = this.io;
    type Found = { value: string; source: SettingSource } | undefined;
    const flagOrEnv = (flag: string | undefined, name: string): Found => {
      if (flag) return { value: flag, source: 'flag' };
      const fromEnv = env[name];
      return fromEnv ? { value: fromEnv, source: 'environment' } : undefined;
    };
    let apiKey = flagOrEnv(this.options.apiKey, 'PROFILE_ARTICLES_API_KEY');
    let baseUrl = flagOrEnv(this.options.baseUrl, 'PROFILE_ARTICLES_BASE_URL');
    if (!apiKey || !baseUrl) {
      const store = await this.store();
      const storedKey = store.get('apiKey');
      const storedUrl = store.get('baseUrl');
      apiKey ??= storedKey ? { value: storedKey, source: 'config' } : undefined;
      baseUrl ??= storedUrl ? { value: storedUrl, source: 'config' } : undefined;
    }
    const interval =
      this.options.pollInterval !== undefined
        ? pollIntervalMs(this.options.pollInterval, '--poll-interval')
        : pollIntervalMs(env.PROFILE_ARTICLES_POLL_INTERVAL, 'PROFILE_ARTICLES_POLL_INTERVAL');
    return {
      apiKey: apiKey?.value,
      baseUrl: baseUrl?.value,
      pollIntervalMs: interval,
      sources: { apiKey: apiKey?.source, baseUrl: baseUrl?.source },
    };
  }

  /** A client for the configured account; a missing key or origin is a clear error. */
  async client(
    overrides: { apiKey?: string } & Pick<ClientOptions, 'pacing' | 'maxRetries' | 'maxRetryDelayMs'> = {},
  ): Promise<ProfileArticles> {
    const settings = await this.settings();
    const apiKey = overrides.apiKey ?? settings.apiKey;
    if (!apiKey) {
      throw new CliError(
        'No API key is set.',
        ExitCode.Authentication,
        'Run `profile-articles login`, or set PROFILE_ARTICLES_API_KEY.',
      );
    }
    if (!settings.baseUrl) {
      throw new CliError(
        'No API origin is set.',
        ExitCode.Usage,
        'Pass --base-url URL, set PROFILE_ARTICLES_BASE_URL, or run `profile-articles config set base-url URL`.',
      );
    }
    const { ProfileArticles } = await import('@profile-articles/sdk');
    this.createdClient = new ProfileArticles({
      apiKey,
      baseUrl: settings.baseUrl,
      pollIntervalMs: settings.pollIntervalMs,
      // A person at a terminal should not sit through a long silent wait: past this, say when to come back.
      maxRetryDelayMs: overrides.maxRetryDelayMs ?? CLI_MAX_RETRY_DELAY_MS,
      ...(overrides.pacing === undefined ? {} : { pacing: overrides.pacing }),
      ...(overrides.maxRetries === undefined ? {} : { maxRetries: overrides.maxRetries }),
    });
    return this.createdClient;
  }
}
