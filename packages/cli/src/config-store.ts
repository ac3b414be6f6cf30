// The stored settings: a conf file readable by its owner only (conf's own default is 0o666
// less the umask, world-readable). PROFILE_ARTICLES_CONFIG_DIR moves it, for tests.
import { chmodSync, existsSync } from 'node:fs';
import type Conf from 'conf';

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
}

export async function openConfigStore(env: Record<string, string | undefined>): Promise<ConfigStore> {
  const { default: ConfClass } = await import('conf');
  const dir = env.PROFILE_ARTICLES_CONFIG_DIR;
  const conf: Conf<StoredSettings> = new ConfClass<StoredSettings>({
    projectName: 'profile-articles',
    projectSuffix: '',
    ...(dir ? { cwd: dir } : {}),
    configFileMode: 0o600,
    schema: {
      apiKey: { type: 'string', minLength: 1 },
      baseUrl: { type: 'string', pattern: '^https?://' },
    },
  });
  const lockDown = () => {
    // conf sets the mode when it creates the file; a file from an older version keeps its own.
    if (existsSync(conf.path)) chmodSync(conf.path, 0o600);
  };
  return {
    path: conf.path,
    get: (key) => conf.get(key),
    set: (key, value) => {
      conf.set(key, value);
      lockDown();
    },
    delete: (key) => {
      conf.delete(key);
      lockDown();
    },
  };
}

/** Enough of a key to recognise it: at most the first 4 and last 2 characters. */
export function maskKey(key: string): string {
  if (key.length >= 12) return `${key.slice(0, 4)}…${key.slice(-2)}`;
  if (key.length >= 8) return `${key.slice(0, 2)}…${key.slice(-1)}`;
  return '****';
}
