// The system's credential store (macOS Keychain, Windows Credential Manager, the Secret Service
// on Linux) through @napi-rs/keyring: service `profile-articles`, account `<profile>@<origin>`.
// Loaded only by the commands that store, remove or use a key kept there: it is a native addon,
// and every other start-up stays without it (bench/cli-startup.mjs).
//
// On Linux the library falls back, unless told otherwise, to the kernel's keyring when no Secret
// Service answers: that one lives in memory and is gone at reboot, so a key "stored" there would
// vanish without a word. Each entry is pinned to the Secret Service instead, and where none
// answers the caller keeps the key in the settings file and says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../terminal/io.js';
import { originOf } from './origin.js';

export const KEYRING_SERVICE = 'profile-articles';
/** How long one call to the store may take before the store counts as not answering. */
export const KEYRING_TIMEOUT_MS = 3000;

/** The account a profile's key is kept under: the origin is part of it, as for gh's hosts. */
export const keyringAccount = (profile: string, baseUrl: string): string => `${profile}@${originOf(baseUrl)}`;

/** Why the store could not be used, in words that never hold the key. */
export class KeyringUnavailable extends Error {
  override name = 'KeyringUnavailable';
}

/**
 * On Linux the Secret Service is reached over the session bus: without an address for one
 * (DBUS_SESSION_BUS_ADDRESS, or the bus socket in XDG_RUNTIME_DIR, where libdbus looks next)
 * there is nothing to ask, and the addon is not loaded at all.
 */
function noBus(env: Io['env']): string | undefined {
  if (process.platform !== 'linux') return undefined;
  if (env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  if (env.XDG_RUNTIME_DIR && existsSync(join(env.XDG_RUNTIME_DIR, 'bus'))) return undefined;
  return 'no session bus for a Secret Service: DBUS_SESSION_BUS_ADDRESS is not set';
}

/** The store's own words, on one line, without the key (it never holds it; this makes sure). */
function reason(error: unknown, secret: string | undefined): string {
  let text = error instanceof Error ? error.message : String(error);
  if (secret) text = text.split(secret).join('****');
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

type Entry = import('@napi-rs/keyring').AsyncEntry;

/**
 * Runs one call on the account's entry within KEYRING_TIMEOUT_MS. Making the entry is synchronous
 * in the addon (on Linux it opens the Secret Service session, with a D-Bus reply limit of its own
 * under that bound): its time counts against the same deadline, and the call is aborted at it.
 */
async function withEntry<T>(
  env: Io['env'],
  account: string,
  secret: string | undefined,
  call: (entry: Entry, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const missing = noBus(env);
  if (missing) throw new KeyringUnavailable(missing);
  const started = Date.now();
  let entry: Entry;
  try {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    entry = new AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
  } catch (error) {
    throw new KeyringUnavailable(reason(error, secret));
  }
  const left = Math.max(0, KEYRING_TIMEOUT_MS - (Date.now() - started));
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeyringUnavailable(`it did not answer within ${KEYRING_TIMEOUT_MS / 1000} s`));
    }, left);
  });
  try {
    return await Promise.race([call(entry, controller.signal), late]);
  } catch (error) {
    if (error instanceof KeyringUnavailable) throw error;
    throw new KeyringUnavailable(reason(error, secret));
  } finally {
    clearTimeout(timer);
  }
}

/** Stores the key; a KeyringUnavailable says why it could not. */
export function keyringSet(env: Io['env'], account: string, key: string): Promise<void> {
  return withEntry(env, account, key, (entry, signal) => entry.setPassword(key, signal));
}

/**
 * The key kept under the account, or undefined when the store holds none there. A locked
 * Secret Service answers as if it held none (it searches only what is unlocked).
 */
export async function keyringGet(env: Io['env'], account: string): Promise<string | undefined> {
  const key = await withEntry(env, account, undefined, (entry, signal) => entry.getPassword(signal));
  return key ?? undefined;
}

/** Removes the account's entry; false when there was none. */
export function keyringDelete(env: Io['env'], account: string): Promise<boolean> {
  return withEntry(env, account, undefined, (entry, signal) => entry.deleteCredential(signal));
}
