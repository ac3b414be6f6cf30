// The stored settings: one small JSON file readable by its owner only. Written here rather than
// with conf: conf's atomic writer installs exit hooks that re-raise Ctrl-C before the CLI can
// print its resume hint, and its parse errors echo the file's bytes (which may hold a key).
// PROFILE_ARTICLES_CONFIG_DIR moves the file, for tests and CI.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import type { Io } from './io.js';

export interface StoredSettings {
  apiKey?: string;
  baseUrl?: string;
}

export const SETTING_NAMES = { 'api-key': 'apiKey', 'base-url': 'baseUrl' } as const;
export type SettingName = keyof typeof SETTING_NAMES;

export interface ConfigStore {
  readonly path: string;
  get<K extends keyof StoredSettings>(key: K): StoredSettings[K];
  set<K extends keyof StoredSettings>(key: K, value: NonNullable<StoredSettings[K]>): void;
  delete(key: keyof StoredSettings): void;
  /** Why the file cannot be used (never its content), or undefined. */
  readonly problem: string | undefined;
  /** Replaces whatever the file holds with no settings: how `logout` recovers a broken file. */
  reset(): void;
}

/** Where the settings live: the same place conf (which stored them before) chose, per platform. */
function configFilePath(env: Io['env'], platform = process.platform): string {
  if (env.PROFILE_ARTICLES_CONFIG_DIR) return join(env.PROFILE_ARTICLES_CONFIG_DIR, 'config.json');
  const home = env.HOME || homedir();
  const name = 'profile-articles';
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', name, 'config.json');
  if (platform === 'win32') {
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), name, 'Config', 'config.json');
  }
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), name, 'config.json');
}

type Loaded = { settings: StoredSettings; problem: string | undefined };

function load(path: string): Loaded {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, problem: undefined };
    return { settings: {}, problem: `it cannot be read (${(error as NodeJS.ErrnoException).code})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text: never repeat it.
    return { settings: {}, problem: 'it is not valid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { settings: {}, problem: 'it does not hold a JSON object' };
  }
  const { apiKey, baseUrl } = value as Record<string, unknown>;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '')) {
    return { settings: {}, problem: '"apiKey" is not a non-empty string' };
  }
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl))) {
    return { settings: {}, problem: '"baseUrl" is not an http(s) URL' };
  }
  return { settings: value as StoredSettings, problem: undefined };
}

function save(path: string, settings: StoredSettings): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Write then rename, so a crash never leaves half a file; the mode is set before any byte lands.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, '\t')}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  // A file from an older version keeps the mode it had: lock it down too.
  chmodSync(path, 0o600);
}

export function openConfigStore(env: Io['env']): ConfigStore {
  const path = configFilePath(env);
  const loaded = load(path);
  const usable = (): StoredSettings => {
    if (loaded.problem === undefined) return loaded.settings;
    throw new CliError(
      `The settings file ${path} cannot be used: ${loaded.problem}.`,
      ExitCode.Usage,
      'Fix it by hand, or run `profile-articles logout` to start it afresh (it forgets the stored key and origin). `profile-articles config path` prints where it is.',
    );
  };
  return {
    path,
    get problem() {
      return loaded.problem;
    },
    get: (key) => usable()[key],
    set: (key, value) => {
      loaded.settings = { ...usable(), [key]: value };
      save(path, loaded.settings);
    },
    delete: (key) => {
      const { [key]: _gone, ...rest } = usable();
      loaded.settings = rest;
      save(path, rest);
    },
    reset: () => {
      loaded.settings = {};
      loaded.problem = undefined;
      save(path, {});
    },
  };
}

/** Enough of a key to recognise it: at most the first 4 and last 2 characters. */
export function maskKey(key: string): string {
  if (key.length >= 12) return `${key.slice(0, 4)}…${key.slice(-2)}`;
  if (key.length >= 8) return `${key.slice(0, 2)}…${key.slice(-1)}`;
  return '****';
}
