// Settings for a run (flag > environment > stored config) and the SDK client built from them.
// The SDK loads only when a command needs it, so --help stays fast.
import type { ClientOptions, Logger, LogLevel, ProfileArticles } from '@profile-articles/sdk';
import { version } from '../../package.json';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { costOf, isPaidOperation } from '../shell/paid-operation.js';
import type { HttpTrace } from '../terminal/http-trace.js';
import type { Io } from '../terminal/io.js';
import { Output } from '../terminal/output.js';
import type { ReportContext } from '../terminal/report-error.js';
import type { ConfigStore } from './config-store.js';
import { isLoopbackHost } from './loopback.js';
import { checkBaseUrl, originOf } from './origin.js';
import { proxyFromEnv } from './proxy-env.js';
import { type KeyPlace, keyPlace, readStoredKey } from './stored-key.js';
import { MAX_WAIT_SECONDS } from './timer-limit.js';

export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  json?: boolean;
  /** Filters the JSON output with jq's language; implies --json. */
  jq?: string;
  pollInterval?: string;
  verbose?: boolean;
  pager?: boolean;
}

type ClientOverrides = Pick<ClientOptions, 'pacing' | 'maxRetries' | 'maxRetryDelayMs'>;

type SettingSource = 'flag' | 'environment' | 'config' | 'default';

/**
 * The profile in use and what chose it: --profile, PROFILE_ARTICLES_PROFILE, `config use`
 * (`config`), or none of them (`default`).
 */
export interface ActiveProfile {
  name: string;
  source: 'flag' | 'environment' | 'config' | 'default';
}

export interface Settings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  pollIntervalMs: number;
  /** `config` is the active profile's stored value. */
  sources: { apiKey: SettingSource | undefined; baseUrl: SettingSource | undefined };
  profile: ActiveProfile;
  /** When --profile and PROFILE_ARTICLES_API_KEY are both given: which key won, in a sentence. */
  keyChoice: string | undefined;
  /** Why the stored key in use may not go to the origin in use (keyElsewhere), if it may not. */
  keyRefused: CliError | undefined;
  /** Where the stored key in use is kept, when the key is the active profile's stored one. */
  keyPlace: KeyPlace | undefined;
  /** Why the stored key in use could not be read from the system keyring, if it could not. */
  keyUnavailable: CliError | undefined;
}

/** Commands that make a profile that is not stored yet: every other refuses to use one. */
const MAKES_PROFILE = new Set(['login', 'config set']);
/**
 * Commands that show or change the profile in use, which read the profile `config use` chose
 * even when flags and the environment give the key and the origin (every other command then
 * reads no settings file at all).
 */
const SHOWS_PROFILE = new Set(['login', 'status']);

const CLI_MAX_RETRY_DELAY_MS = 10_000;

/** The interval asked for, or undefined for none (the SDK's default then applies). */
function pollIntervalMs(raw: string | undefined, from: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) {
    throw new CliError(
      `${from} must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}, got "${raw}"`,
      ExitCode.Usage,
    );
  }
  return Math.round(seconds * 1000);
}

/** A local server (the mock) answers at once: polling it every 10 s made a 4 s job take 10. */
const LOOPBACK_POLL_INTERVAL_MS = 1000;

/**
 * With no interval given: 1 s on a loopback origin, else the SDK's own default (the interface's
 * advice, 10 s), loaded only then.
 */
async function defaultPollIntervalMs(baseUrl: string | undefined): Promise<number> {
  if (baseUrl && URL.canParse(baseUrl) && isLoopbackHost(new URL(baseUrl).hostname))
    return LOOPBACK_POLL_INTERVAL_MS;
  return (await import('@profile-articles/sdk/internal')).defaultOptions.pollIntervalMs;
}

/**
 * What is missing for a call, all of it at once, worded the same wherever it is found (a
 * command's client, `status`). No origin is a usage error (2) like any missing setting; only a
 * key missing with an origin set is an authentication failure (4).
 */
export function missingSettings(settings: Pick<Settings, 'apiKey' | 'baseUrl'>): CliError | undefined {
  if (!settings.baseUrl && !settings.apiKey) {
    return new CliError(
      'No API origin and no API key are set.',
      ExitCode.Usage,
      'Run `profile-articles login --base-url URL` (it stores both), or set PROFILE_ARTICLES_BASE_URL and PROFILE_ARTICLES_API_KEY.',
    );
  }
  if (!settings.baseUrl) {
    return new CliError(
      'No API origin is set.',
      ExitCode.Usage,
      'Pass --base-url URL, set PROFILE_ARTICLES_BASE_URL, or run `profile-articles config set base-url URL`.',
    );
  }
  if (!settings.apiKey) {
    return new CliError(
      'No API key is set.',
      ExitCode.Authentication,
      'Run `profile-articles login`, or set PROFILE_ARTICLES_API_KEY.',
    );
  }
  return undefined;
}

/** A profile that is not stored: the ones that are, and the nearest to a slip of the fingers. */
async function unknownProfile(store: ConfigStore, profile: ActiveProfile): Promise<CliError> {
  const names = store.profileNames();
  const { nearest } = await import('../shell/nearest.js');
  const near = nearest(profile.name, names);
  const listed =
    names.length === 0
      ? 'No profile is stored yet.'
      : `The stored ${names.length === 1 ? 'profile is' : 'profiles are'} ${
          names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
        }${near ? ` (did you mean ${near}?)` : ''}.`;
  return new CliError(
    `No profile named "${profile.name}" is stored (from ${PROFILE_FROM[profile.source]}). ${listed}`,
    ExitCode.Usage,
    `\`profile-articles login --profile ${profile.name}\` stores one.`,
  );
}

/** What chose the profile, as a message names it. */
export const PROFILE_FROM: Record<ActiveProfile['source'], string> = {
  flag: '--profile',
  environment: 'PROFILE_ARTICLES_PROFILE',
  config: '`config use`',
  default: 'the default',
};

/** Where an origin came from, as a message names it. */
const urlFrom = (source: SettingSource, profile: string): string =>
  source === 'flag'
    ? '--base-url'
    : source === 'environment'
      ? 'PROFILE_ARTICLES_BASE_URL'
      : `The base-url stored in profile "${profile}"`;

/**
 * A stored key goes only to the origin it was stored with (PRODUCT.md, Fixes): the usage error
 * for an origin from a flag or the environment that is not the profile's own (as origins:
 * `HTTP://Host:80/api/v1` is `http://host`), or for a profile that stores no origin; undefined
 * when the key may go. It names the profiles that hold that origin, and how to send another key.
 */
function keyElsewhere(
  store: ConfigStore,
  profile: string,
  baseUrl: { value: string; from: string },
  envKeyPassedOver: boolean,
): CliError | undefined {
  const target = originOf(baseUrl.value);
  const own = store.get(profile, 'baseUrl');
  if (own !== undefined && URL.canParse(own) && originOf(own) === target) return undefined;
  const { from } = baseUrl;
  const shown = baseUrl.value.includes('@') ? target : baseUrl.value;
  const message =
    own === undefined
      ? `Profile "${profile}" stores a key but no origin: it is not sent to ${shown} (from ${from}).`
      : `The key of profile "${profile}" is stored for ${own}: it is not sent to ${shown} (from ${from}).`;
  const holders = store.profileNames().filter((name) => {
    const stored = store.get(name, 'baseUrl');
    return (
      name !== profile &&
      keyPlace(store, name) !== undefined &&
      stored !== undefined &&
      URL.canParse(stored) &&
      originOf(stored) === target
    );
  });
  const hints = [
    holders.length === 1
      ? `Profile "${holders[0]}" holds that origin: add --profile ${holders[0]}.`
      : holders.length > 1
        ? `Profiles ${holders.map((name) => `"${name}"`).join(', ')} hold that origin: add --profile with one of them.`
        : undefined,
    envKeyPassedOver
      ? 'PROFILE_ARTICLES_API_KEY is set too, but --profile chose the stored key over it: drop --profile to send the environment’s key there.'
      : undefined,
    'To send another key there, pass --api-key or set PROFILE_ARTICLES_API_KEY.',
  ];
  return new CliError(message, ExitCode.Usage, hints.filter(Boolean).join(' '));
}

export class Context {
  readonly io: Io;
  readonly options: GlobalOptions;
  readonly out: Output;
  /** The command as typed (`generate`, `config set`), and the options it was given. */
  readonly command: string;
  readonly commandOptions: Record<string, unknown>;
  /** The command's operands as typed (`ada-lovelace` for `read ada-lovelace`). */
  readonly commandArgs: readonly string[];
  /** Where the key in use came from, once the settings were read (for a 401's hint). */
  #keySource: SettingSource | undefined;
  #store: ConfigStore | undefined;
  #client: Promise<ProfileArticles> | undefined;
  #settings: Promise<Settings> | undefined;
  /** Each warning once per run, whoever says it (the SDK, through the logger below, or a command). */
  #warned = new Set<string>();
  #trace: HttpTrace | undefined;

  constructor(
    io: Io,
    options: GlobalOptions,
    command = '',
    commandOptions: Record<string, unknown> = {},
    commandArgs: readonly string[] = [],
  ) {
    this.io = io;
    this.options = options;
    this.out = new Output(
      io,
      options.json === true || options.jq !== undefined,
      options.jq,
      options.profile,
      options.json === true,
    );
    this.command = command;
    this.commandOptions = commandOptions;
    this.commandArgs = commandArgs;
  }

  async store(): Promise<ConfigStore> {
    if (!this.#store) {
      const { openConfigStore } = await import('./config-store.js');
      this.#store = openConfigStore(this.io.env);
    }
    return this.#store;
  }

  /**
   * The profile this run uses: --profile, else PROFILE_ARTICLES_PROFILE, else the one
   * `config use` chose, else `default`.
   */
  async activeProfile(): Promise<ActiveProfile> {
    const fromEnv = this.io.env.PROFILE_ARTICLES_PROFILE;
    const { checkProfileName } = await import('./config-store.js');
    if (this.options.profile !== undefined) {
      return { name: checkProfileName(this.options.profile, '--profile'), source: 'flag' };
    }
    if (fromEnv)
      return { name: checkProfileName(fromEnv, 'PROFILE_ARTICLES_PROFILE'), source: 'environment' };
    const chosen = (await this.store()).chosenProfile;
    return chosen ? { name: chosen, source: 'config' } : { name: 'default', source: 'default' };
  }

  /**
   * The settings in effect. Flags beat the environment, which beats what is stored, except that
   * --profile (a flag too) beats the environment's key and origin: --api-key, then --profile's
   * stored key, then PROFILE_ARTICLES_API_KEY, then the stored key of PROFILE_ARTICLES_PROFILE's
   * profile or of `default` (the origin likewise). A named profile's missing setting is never
   * filled from `default`: a key must not travel to an origin it was not stored with.
   */
  settings(): Promise<Settings> {
    // Once per run: the note on which key won is said once, and the file is read once.
    this.#settings ??= this.#readSettings();
    return this.#settings;
  }

  async #readSettings(): Promise<Settings> {
    const { env } = this.io;
    type Found = { value: string; source: SettingSource } | undefined;
    // A broken settings file is no matter while flags and the environment give everything: the
    // file is not read then, unless a profile is named or the command shows the one in use.
    const givenAll =
      Boolean(this.options.apiKey || env.PROFILE_ARTICLES_API_KEY) &&
      Boolean(this.options.baseUrl || env.PROFILE_ARTICLES_BASE_URL);
    const profile: ActiveProfile =
      givenAll &&
      this.options.profile === undefined &&
      !env.PROFILE_ARTICLES_PROFILE &&
      !SHOWS_PROFILE.has(this.command)
        ? { name: 'default', source: 'default' }
        : await this.activeProfile();
    const needsStore = profile.source !== 'default' || !givenAll;
    const store = needsStore ? await this.store() : undefined;
    if (
      store &&
      profile.source !== 'default' &&
      !store.has(profile.name) &&
      !MAKES_PROFILE.has(this.command)
    ) {
      throw await unknownProfile(store, profile);
    }
    // The stored key is read only when it is the one chosen: one in the keyring is a call to it.
    // login asks for a new key whatever is stored, so it reads none.
    const place = store && this.command !== 'login' ? keyPlace(store, profile.name) : undefined;
    let keyUnavailable: CliError | undefined;
    // A key in the keyring is a round trip to its service: the SDK (which nearly every command
    // that reads a key loads next) loads meanwhile, so start-up pays for the longer of the two.
    if (place === 'keyring' && !this.command.startsWith('config'))
      void import('@profile-articles/sdk').catch(() => undefined);
    const stored = async (key: 'apiKey' | 'baseUrl'): Promise<Found> => {
      if (key === 'apiKey') {
        if (!store || place === undefined) return undefined;
        try {
          const value = await readStoredKey(store, profile.name, env);
          return value ? { value, source: 'config' } : undefined;
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          // Said where the key is needed (client(), status), after what is known is shown.
          keyUnavailable = error;
          return undefined;
        }
      }
      const value = store?.get(profile.name, key);
      return value ? { value, source: 'config' } : undefined;
    };
    const pick = async (
      flag: string | undefined,
      name: string,
      key: 'apiKey' | 'baseUrl',
    ): Promise<Found> => {
      if (flag) return { value: flag, source: 'flag' };
      const fromEnv: Found = env[name] ? { value: env[name], source: 'environment' } : undefined;
      if (profile.source !== 'flag') return fromEnv ?? (await stored(key));
      // --profile chose the stored key: one the keyring cannot give is never swapped for the
      // environment's, a key the person did not choose.
      return (await stored(key)) ?? (keyUnavailable ? undefined : fromEnv);
    };
    const apiKey = await pick(this.options.apiKey, 'PROFILE_ARTICLES_API_KEY', 'apiKey');
    const baseUrl = await pick(this.options.baseUrl, 'PROFILE_ARTICLES_BASE_URL', 'baseUrl');
    // Checked where it was given: a URL without its scheme is named here, not by a request.
    if (baseUrl) checkBaseUrl(baseUrl.value, urlFrom(baseUrl.source, profile.name));
    const envKeyPassedOver =
      profile.source === 'flag' && !this.options.apiKey && Boolean(env.PROFILE_ARTICLES_API_KEY);
    const keyRefused =
      store && apiKey?.source === 'config' && baseUrl && baseUrl.source !== 'config'
        ? keyElsewhere(
            store,
            profile.name,
            { ...baseUrl, from: urlFrom(baseUrl.source, profile.name) },
            envKeyPassedOver,
          )
        : undefined;
    let keyChoice: string | undefined;
    // (login takes its key from the prompt, whatever is stored or set: nothing to say there; a
    // refused key's message says it instead.)
    if (envKeyPassedOver && this.command !== 'login' && !keyRefused) {
      keyChoice =
        apiKey?.source === 'config'
          ? `Using the key of profile "${profile.name}" (--profile); PROFILE_ARTICLES_API_KEY is set too and is not used.`
          : `Profile "${profile.name}" stores no key: using PROFILE_ARTICLES_API_KEY.`;
      this.out.warn(keyChoice);
    }
    const interval =
      this.options.pollInterval !== undefined
        ? pollIntervalMs(this.options.pollInterval, '--poll-interval')
        : pollIntervalMs(env.PROFILE_ARTICLES_POLL_INTERVAL, 'PROFILE_ARTICLES_POLL_INTERVAL');
    this.#keySource = apiKey?.source;
    return {
      apiKey: apiKey?.value,
      baseUrl: baseUrl?.value,
      pollIntervalMs: interval ?? (await defaultPollIntervalMs(baseUrl?.value)),
      sources: { apiKey: apiKey?.source, baseUrl: baseUrl?.source },
      profile,
      keyChoice,
      keyRefused,
      keyPlace: apiKey?.source === 'config' || keyUnavailable ? place : undefined,
      keyUnavailable: apiKey ? undefined : keyUnavailable,
    };
  }

  /** The origin in use; a missing one is a usage error that says how to set it. */
  async baseUrl(): Promise<string> {
    const { baseUrl } = await this.settings();
    if (!baseUrl) {
      throw new CliError(
        'No API origin is set.',
        ExitCode.Usage,
        'Pass --base-url URL, set PROFILE_ARTICLES_BASE_URL, or run `profile-articles config set base-url URL`.',
      );
    }
    return baseUrl;
  }

  /**
   * The client for the configured account (one per run; a missing key or origin is a clear
   * error). `overrides` tune its transport, as batch does for long runs.
   */
  client(overrides: ClientOverrides = {}): Promise<ProfileArticles> {
    this.#client ??= this.settings().then((settings) => {
      if (settings.keyUnavailable && settings.baseUrl) throw settings.keyUnavailable;
      const missing = missingSettings(settings);
      if (missing || !settings.apiKey) throw missing;
      if (settings.keyRefused) throw settings.keyRefused;
      return this.clientFor(settings.apiKey, overrides);
    });
    return this.#client;
  }

  /** A client for a given key, such as the one `login` is checking. */
  async clientFor(apiKey: string, overrides: ClientOverrides = {}): Promise<ProfileArticles> {
    const baseUrl = await this.baseUrl();
    const settings = await this.settings();
    const proxy = proxyFromEnv(baseUrl, this.io.env);
    const [{ ProfileArticles }, { USER_AGENT_PREFIX }, { httpTrace }] = await Promise.all([
      import('@profile-articles/sdk'),
      import('@profile-articles/sdk/internal'),
      import('../terminal/http-trace.js'),
    ]);
    if (this.options.verbose) this.#trace ??= httpTrace(this.io, this.out);
    const options: ClientOptions & { [USER_AGENT_PREFIX]: string } = {
      apiKey,
      baseUrl,
      [USER_AGENT_PREFIX]: `profile-articles-cli/${version}`,
      logLevel: this.#logLevel(),
      logger: this.#logger(),
      // A command is not a traced service: never look for @opentelemetry/api at start-up.
      tracing: false,
      ...(proxy ? { proxy } : {}),
      pollIntervalMs: settings.pollIntervalMs,
      // A person at a terminal should not sit through a long silent wait: past this, say when to come back.
      maxRetryDelayMs: overrides.maxRetryDelayMs ?? CLI_MAX_RETRY_DELAY_MS,
      ...(overrides.pacing === undefined ? {} : { pacing: overrides.pacing }),
      ...(overrides.maxRetries === undefined ? {} : { maxRetries: overrides.maxRetries }),
      ...(this.#trace ? { hooks: this.#trace.hooks } : {}),
    };
    return new ProfileArticles(options);
  }

  /** A warning on stderr, once per run: the SDK's (through the logger) and the CLI's own alike. */
  warn(text: string): void {
    if (this.#warned.has(text)) return;
    this.#warned.add(text);
    // A person reads the word; a JSON reader has it as the object's key (`{"warning": …}`).
    this.out.warn(this.out.jsonOnStderr ? text : `Warning: ${text}`);
  }

  /**
   * The SDK's logger: its warnings as the CLI's own, its `PROFILE_ARTICLES_LOG` lines on stderr
   * (under --json as `{"log": {"level", "message"}}`). The SDK has redacted every line.
   */
  #logger(): Logger {
    const line = (level: string) => (message: string) =>
      this.io.stderr.write(
        this.out.jsonOnStderr
          ? `${JSON.stringify({ log: { level, message } })}\n`
          : `${this.out.errStyle.dim(`${level}: ${message}`)}\n`,
      );
    return {
      error: line('error'),
      warn: (message) => this.warn(message),
      info: line('info'),
      debug: line('debug'),
    };
  }

  /**
   * PROFILE_ARTICLES_LOG from the run's environment, not the process's (a test's run has its
   * own; the SDK would read process.env), checked here so that the error names it.
   */
  #logLevel(): LogLevel {
    const raw = this.io.env.PROFILE_ARTICLES_LOG;
    if (!raw) return 'warn';
    const levels = ['off', 'error', 'warn', 'info', 'debug'];
    if (!levels.includes(raw)) {
      throw new CliError(
        `PROFILE_ARTICLES_LOG must be one of ${levels.join(', ')}; got ${JSON.stringify(raw)}.`,
        ExitCode.Usage,
      );
    }
    return raw as LogLevel;
  }

  /** Before any client is made (login asks for the key after it): plain http to another machine. */
  async warnIfPlainHttp(baseUrl: string): Promise<void> {
    const { plainHttpWarning } = await import('@profile-articles/sdk/internal');
    let warning: string | undefined;
    try {
      warning = plainHttpWarning(baseUrl);
    } catch {
      return; // not a URL: making the client says so
    }
    if (warning) this.warn(warning);
  }

  /** Ends the run's output: a --verbose line still waiting for a retry decision is written. */
  finish(): void {
    this.#trace?.flush();
  }

  /** What the error reporter may know about this run. */
  reportContext(): ReportContext {
    return {
      command: this.command,
      keyGiven: typeof this.commandOptions.idempotencyKey === 'string',
      keySource: this.#keySource,
      ...(isPaidOperation(this.command) && this.commandArgs[0] !== undefined
        ? { profileId: this.commandArgs[0] }
        : {}),
      balance: async () => {
        if (!this.#client) return undefined;
        const client = await this.#client;
        const { credits, pricing } = await client.credits.balance({ maxRetries: 0 });
        // What this command costs, from the same answer: the price is the account's own.
        return { credits, cost: isPaidOperation(this.command) ? costOf(this.command, pricing) : undefined };
      },
    };
  }
}
