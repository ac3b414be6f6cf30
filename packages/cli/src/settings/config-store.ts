// The stored settings: one small JSON file readable by its owner only, holding named profiles
// (each an API key and an origin). Written here rather than with conf: conf's atomic writer
// installs exit hooks that re-raise Ctrl-C before the CLI can print its resume hint, and its
// parse errors echo the file's bytes (which may hold a key). PROFILE_ARTICLES_CONFIG_DIR moves
// the file, for tests and CI.
//
// The file is `{"profiles": {"default": {"apiKey", "baseUrl"}, …}, "activeProfile"?: NAME}`: a
// profile whose key is in the system keyring holds `"apiKeyIn": "keyring"` in place of `apiKey`,
// and `activeProfile` is the one `config use` made the default. Releases before profiles
// wrote `{"apiKey", "baseUrl"}` at the top: that is read as the `default` profile, and the next
// write stores it in the new shape, so nobody has to do anything.
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  ConfigError,
  fsyncFolder,
  prepareDataFolder,
  removeLeftover,
  writeTemporary,
} from '@profile-articles/mock-server/files';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Io } from '../terminal/io.js';
import { type SettingsLock, withSettingsLock } from './settings-lock.js';

/**
 * What one profile stores. `apiKeyIn: "keyring"` says the key is in the system's credential
 * store (settings/keyring.ts) under the profile's origin, and `apiKey` is then absent.
 */
export interface StoredSettings {
  apiKey?: string;
  apiKeyIn?: 'keyring';
  baseUrl?: string;
}

export const SETTING_NAMES = { 'api-key': 'apiKey', 'base-url': 'baseUrl' } as const;
export type SettingName = keyof typeof SETTING_NAMES;

const DEFAULT_PROFILE = 'default';
/** A profile name: safe to show, to type unquoted in a shell and to keep in a JSON key. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `name`, when it can name a profile; otherwise a usage error that says what can. */
export function checkProfileName(name: string, from: string): string {
  if (PROFILE_NAME.test(name)) return name;
  throw new CliError(
    `${from} must be a profile name: up to 64 letters, digits, dots, dashes and underscores, starting with a letter or digit.`,
    ExitCode.Usage,
  );
}

/** A change to one profile: each named setting set to its value, or removed when undefined. */
export type SettingsChange = { [K in keyof StoredSettings]?: StoredSettings[K] | undefined };

export interface ConfigStore {
  readonly path: string;
  /** The profile `config use` made the default, if any (it is stored). */
  readonly chosenProfile: string | undefined;
  /** Makes `profile` the default of later commands; `default` (or undefined) undoes the choice. */
  choose(profile: string | undefined): void;
  /** Several settings of one profile changed in one write; a profile left with none is removed. */
  change(profile: string, change: SettingsChange): void;
  /** The stored profiles' names, `default` first, the others in alphabetical order. */
  profileNames(): string[];
  has(profile: string): boolean;
  get<K extends keyof StoredSettings>(profile: string, key: K): StoredSettings[K] | undefined;
  set<K extends keyof StoredSettings>(profile: string, key: K, value: NonNullable<StoredSettings[K]>): void;
  /** Removes a setting; a profile left with none is removed too. */
  delete(profile: string, key: keyof StoredSettings): void;
  /** Why the file cannot be used (never its content), or undefined. */
  readonly problem: string | undefined;
  /** Replaces whatever the file holds with no settings: how `logout` recovers a broken file. */
  reset(): void;
}

type Profiles = Record<string, StoredSettings>;

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

type Loaded = { profiles: Profiles; chosen: string | undefined; problem: string | undefined };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why one profile's settings cannot be used, or undefined. Names only the field, never its value. */
function profileProblem(value: unknown, where: string): string | undefined {
  if (!isObject(value)) return `${where} is not a JSON object`;
  const { apiKey, apiKeyIn, baseUrl } = value;
  if (apiKeyIn !== undefined && apiKeyIn !== 'keyring') {
    return `"apiKeyIn" ${where === 'it' ? '' : `of ${where} `}is not "keyring"`;
  }
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '')) {
    return `"apiKey" ${where === 'it' ? '' : `of ${where} `}is not a non-empty string`;
  }
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl))) {
    return `"baseUrl" ${where === 'it' ? '' : `of ${where} `}is not an http(s) URL`;
  }
  return undefined;
}

/** The settings folder's refusals, in the words of the mock's --data ones (data/folder-checks.ts). */
const SETTINGS_FOLDER = {
  folder: 'the settings folder',
  user: 'your user',
  reads: 'the settings, among them the origin a stored key is sent to',
  instead: 'Use a folder of your own (PROFILE_ARTICLES_CONFIG_DIR)',
};

const refused = (message: string) => new CliError(message, ExitCode.Failure);

/**
 * Checks the settings folder before anything in it is read or written (PRODUCT.md, Fixes): one
 * that another user owns or may write in, or a link another user owns (which they can re-point at
 * any time), could plant an origin that a key stored afterwards is sent to. Created 0700 when
 * `create` (a write) and missing; false when it is missing and not created.
 */
function checkFolder(dir: string, create: boolean): boolean {
  const uid = process.geteuid?.();
  try {
    const link = fs.lstatSync(dir);
    if (link.isSymbolicLink() && uid !== undefined && link.uid !== uid)
      throw refused(
        `Refusing the settings folder ${dir}: it is a link that belongs to user ${link.uid}, not to your user ${uid}, who could point it elsewhere at any time. ` +
          `Use a folder of your own (PROFILE_ARTICLES_CONFIG_DIR), or take the link: chown -h ${uid} ${dir}`,
      );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!create) return false;
  }
  try {
    prepareDataFolder(dir, SETTINGS_FOLDER);
  } catch (error) {
    if (error instanceof ConfigError) throw refused(error.message);
    throw error;
  }
  return true;
}

/** The file's text, or undefined when there is none; refuses one someone else could change. */
function readOwnFile(path: string): string | undefined {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  let fd: number;
  try {
    // Never through a link, and never blocking on a FIFO planted under the name.
    fd = fs.openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP')
      throw refused(
        `Refusing the settings file ${path}: it is a link, not a regular file. Remove it: rm ${path}`,
      );
    throw error;
  }
  try {
    const stats = fs.fstatSync(fd);
    const uid = process.geteuid?.();
    if (!stats.isFile())
      throw refused(`Refusing the settings file ${path}: it is not a regular file. Remove it: rm ${path}`);
    if (process.platform !== 'win32') {
      if (uid !== undefined && stats.uid !== uid)
        throw refused(
          `Refusing the settings file ${path}: it belongs to user ${stats.uid}, not to your user ${uid}, who could then change the origin a stored key is sent to. Take it: chown ${uid} ${path}`,
        );
      if (stats.nlink > 1)
        throw refused(
          `Refusing the settings file ${path}: it has ${stats.nlink} links, and another name for it could change the origin a stored key is sent to. Make it a file of its own: cp ${path} ${path}.own && mv ${path}.own ${path}`,
        );
      if ((stats.mode & 0o022) !== 0)
        throw refused(
          `Refusing the settings file ${path}: others may write it, and could then change the origin a stored key is sent to. Fix it with: chmod go-w ${path}`,
        );
    }
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function load(path: string): Loaded {
  let text: string | undefined;
  try {
    text = readOwnFile(path);
  } catch (error) {
    if (error instanceof CliError) throw error;
    return {
      profiles: {},
      chosen: undefined,
      problem: `it cannot be read (${(error as NodeJS.ErrnoException).code})`,
    };
  }
  if (text === undefined) return { profiles: {}, chosen: undefined, problem: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text: never repeat it.
    return { profiles: {}, chosen: undefined, problem: 'it is not valid JSON' };
  }
  if (!isObject(value)) return { profiles: {}, chosen: undefined, problem: 'it does not hold a JSON object' };
  const broken = (problem: string): Loaded => ({ profiles: {}, chosen: undefined, problem });
  if (value.profiles === undefined) {
    // Written by a release before profiles: its one key and origin are the default profile.
    const problem = profileProblem(value, 'it');
    if (problem) return broken(problem);
    const { apiKey, baseUrl } = value as StoredSettings;
    const legacy = { ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) };
    return {
      profiles: Object.keys(legacy).length ? { [DEFAULT_PROFILE]: legacy } : {},
      chosen: undefined,
      problem: undefined,
    };
  }
  if (!isObject(value.profiles)) return broken('"profiles" is not a JSON object');
  const profiles: Profiles = {};
  for (const [name, settings] of Object.entries(value.profiles)) {
    // A name that is not a valid profile name may be anything (a pasted key): never shown.
    if (!PROFILE_NAME.test(name)) return broken('a profile name in "profiles" is not a valid profile name');
    const problem = profileProblem(settings, `profile "${name}"`);
    if (problem) return broken(problem);
    const { apiKey, apiKeyIn, baseUrl } = settings as StoredSettings;
    profiles[name] = {
      // A key in the keyring wins over one left in the file by hand: the file's is never read then.
      ...(apiKeyIn ? { apiKeyIn } : apiKey ? { apiKey } : {}),
      ...(baseUrl ? { baseUrl } : {}),
    };
  }
  const { activeProfile } = value;
  if (activeProfile !== undefined && (typeof activeProfile !== 'string' || !PROFILE_NAME.test(activeProfile)))
    return broken('"activeProfile" is not a valid profile name');
  // Chosen by `config use`, which keeps it only while it is stored (a hand edit may not have).
  const chosen =
    activeProfile !== undefined && Object.hasOwn(profiles, activeProfile) ? activeProfile : undefined;
  return { profiles, chosen, problem: undefined };
}

/** What the file holds: the profiles, and the one `config use` chose (kept only while stored). */
type Contents = { profiles: Profiles; chosen: string | undefined };

/** A write that failed (a full disk): the old file is kept, and the run says so (exit 1). */
const notWritten = (path: string, error: unknown) =>
  new CliError(
    `Could not write the settings file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), so nothing was written: it keeps what it held.`,
    ExitCode.Failure,
  );

/** Writes the file whole or not at all; the caller holds the lock (settings-lock.ts). */
function save(path: string, { profiles, chosen }: Contents, lock: SettingsLock): void {
  // Exclusive temporary (never through a link), every byte checked, fsync, rename, fsync of the
  // folder, mode 0600 from the start (durable-file.ts): a crash or a full disk leaves the old
  // file or the new one. Under the lock only this run writes the temporary: one a crash left goes.
  const temporary = `${path}.tmp`;
  let written: ReturnType<typeof writeTemporary>;
  try {
    removeLeftover(temporary);
    const shape =
      chosen !== undefined && Object.hasOwn(profiles, chosen)
        ? { profiles, activeProfile: chosen }
        : { profiles };
    written = writeTemporary(path, `${JSON.stringify(shape, null, '\t')}\n`, temporary);
  } catch (error) {
    throw notWritten(path, error);
  }
  // A lock taken from this run (deleted by hand while it stalled) means another may be writing:
  // its write is the one that stands.
  if (!lock.stillOurs()) {
    written.discard();
    throw new CliError(
      `The settings lock ${path}.lock was taken from this run while it wrote, so nothing was written.`,
      ExitCode.Failure,
      'Run the command again.',
    );
  }
  // The new file is the temporary renamed, so it is 0600 even where an older version's was
  // not; no chmod by name after the rename, which a link swapped in there would redirect.
  try {
    written.commit();
  } catch (error) {
    written.discard();
    throw notWritten(path, error);
  }
  try {
    fsyncFolder(dirname(path));
  } catch (error) {
    throw new CliError(
      `The settings file ${path} was written, but its folder could not be flushed (${(error as NodeJS.ErrnoException).code}): a crash now may undo it.`,
      ExitCode.Failure,
    );
  }
}

/**
 * Changes the file as it is now, not as it was when this run read it: another run may have
 * written it since. `change` gets the profiles on disk and returns the new ones.
 */
function update(path: string, change: (now: Contents) => Contents): Contents {
  checkFolder(dirname(path), true);
  return withSettingsLock(path, (lock) => {
    const now = load(path);
    if (now.problem !== undefined) throw unusable(path, now.problem);
    const next = change(now);
    // A chosen profile that is gone is forgotten: later commands use `default` again.
    const chosen =
      next.chosen !== undefined && Object.hasOwn(next.profiles, next.chosen) ? next.chosen : undefined;
    save(path, { profiles: next.profiles, chosen }, lock);
    return { profiles: next.profiles, chosen };
  });
}

const unusable = (path: string, problem: string) =>
  new CliError(
    `The settings file ${path} cannot be used: ${problem}.`,
    ExitCode.Usage,
    'Fix it by hand, or run `profile-articles logout` to start it afresh (it forgets every stored key and origin). `profile-articles config path` prints where it is.',
  );

export function openConfigStore(env: Io['env']): ConfigStore {
  const path = configFilePath(env);
  const loaded: Loaded = checkFolder(dirname(path), false)
    ? load(path)
    : { profiles: {}, chosen: undefined, problem: undefined };
  const write = (change: (now: Contents) => Contents) => {
    usable();
    const next = update(path, change);
    loaded.profiles = next.profiles;
    loaded.chosen = next.chosen;
  };
  const changed = (settings: StoredSettings | undefined, change: SettingsChange): StoredSettings => {
    const next: Record<string, unknown> = { ...settings };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    return next as StoredSettings;
  };
  const changeProfile = (profile: string, change: SettingsChange) =>
    write(({ profiles: { [profile]: settings, ...others }, chosen }) => {
      const next = changed(settings, change);
      return { profiles: Object.keys(next).length ? { ...others, [profile]: next } : others, chosen };
    });
  const usable = (): Profiles => {
    if (loaded.problem === undefined) return loaded.profiles;
    throw unusable(path, loaded.problem);
  };
  return {
    path,
    get problem() {
      return loaded.problem;
    },
    get chosenProfile() {
      return loaded.problem === undefined ? loaded.chosen : undefined;
    },
    choose: (profile) =>
      write(({ profiles }) => ({ profiles, chosen: profile === DEFAULT_PROFILE ? undefined : profile })),
    change: changeProfile,
    profileNames: () =>
      Object.keys(usable()).sort((a, b) =>
        a === DEFAULT_PROFILE ? -1 : b === DEFAULT_PROFILE ? 1 : a < b ? -1 : a > b ? 1 : 0,
      ),
    has: (profile) => Object.hasOwn(usable(), profile),
    get: (profile, key) => (Object.hasOwn(usable(), profile) ? usable()[profile]?.[key] : undefined),
    set: (profile, key, value) => changeProfile(profile, { [key]: value }),
    delete: (profile, key) => changeProfile(profile, { [key]: undefined }),
    reset: () => {
      checkFolder(dirname(path), true);
      withSettingsLock(path, (lock) => save(path, { profiles: {}, chosen: undefined }, lock));
      loaded.profiles = {};
      loaded.chosen = undefined;
      loaded.problem = undefined;
    },
  };
}

/** Enough of a key to recognise it: at most the first 4 and last 2 characters. */
export function maskKey(key: string): string {
  if (key.length >= 12) return `${key.slice(0, 4)}…${key.slice(-2)}`;
  if (key.length >= 8) return `${key.slice(0, 2)}…${key.slice(-1)}`;
  return '****';
}
