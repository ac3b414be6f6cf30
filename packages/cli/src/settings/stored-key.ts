// Where a profile's key is kept, the system keyring or the settings file, and moving it between
// them. The keyring module (a native addon) is imported only from here, and only when a key is
// stored, removed, moved or read from the keyring: a key in the file never loads it.
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Io } from '../terminal/io.js';
import type { ConfigStore } from './config-store.js';
import { originOf } from './origin.js';

export type KeyPlace = 'keyring' | 'file';

/** Where the profile keeps its key, or undefined when it stores none. */
export function keyPlace(store: ConfigStore, profile: string): KeyPlace | undefined {
  if (store.get(profile, 'apiKeyIn') === 'keyring') return 'keyring';
  return store.get(profile, 'apiKey') !== undefined ? 'file' : undefined;
}

const keyring = () => import('./keyring.js');

/** The account of a keyring profile's entry: its stored origin names it. */
function accountOf(store: ConfigStore, profile: string): string | undefined {
  const baseUrl = store.get(profile, 'baseUrl');
  return baseUrl !== undefined && URL.canParse(baseUrl) ? `${profile}@${originOf(baseUrl)}` : undefined;
}

/** A command to remove an entry by hand, where the platform has one. */
const removeByHand = (account: string) =>
  process.platform === 'linux'
    ? ` Remove it by hand: secret-tool clear service profile-articles username '${account}'`
    : '';

const hint = (profile: string) => {
  const named = profile === 'default' ? '' : ` --profile ${profile}`;
  return `Unlock the system keyring (or start its service) and run the command again, or run \`profile-articles login${named} --insecure-storage\` to keep the key in the settings file instead.`;
};

/**
 * The stored key of a profile. One in the keyring is read from it: a keyring that does not
 * answer, or holds no entry (a locked Secret Service shows none), is an authentication
 * failure (4) that says which, never a request sent without the key.
 */
export async function readStoredKey(
  store: ConfigStore,
  profile: string,
  env: Io['env'],
): Promise<string | undefined> {
  if (keyPlace(store, profile) !== 'keyring') return store.get(profile, 'apiKey');
  const account = accountOf(store, profile);
  if (!account)
    throw new CliError(
      `Profile "${profile}" keeps its key in the system keyring, but stores no origin to find it by.`,
      ExitCode.Authentication,
      `Run \`profile-articles login${profile === 'default' ? '' : ` --profile ${profile}`} --base-url URL\`.`,
    );
  const { keyringGet, KeyringUnavailable } = await keyring();
  let key: string | undefined;
  try {
    key = await keyringGet(env, account);
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    throw new CliError(
      `The key of profile "${profile}" is kept in the system keyring, which could not be used: ${error.message}.`,
      ExitCode.Authentication,
      hint(profile),
    );
  }
  if (key === undefined)
    throw new CliError(
      `The system keyring holds no key for profile "${profile}" (account ${account}): it is locked, or the entry was removed.`,
      ExitCode.Authentication,
      hint(profile),
    );
  return key;
}

/** Where `saveKey` put the key, and why not in the keyring when it is the file. */
interface Saved {
  place: KeyPlace;
  /** Set when the keyring was tried and could not be used. */
  unavailable?: string;
  account?: string;
}

/**
 * Stores a key with its origin, in the keyring unless `insecure` (login --insecure-storage) or
 * no keyring answers; then in the settings file. An entry the profile had in the keyring under
 * another account (another origin), or one the file now replaces, is removed if it can be.
 */
export async function saveKey(
  store: ConfigStore,
  profile: string,
  baseUrl: string,
  key: string,
  env: Io['env'],
  insecure: boolean,
): Promise<Saved> {
  const before = keyPlace(store, profile) === 'keyring' ? accountOf(store, profile) : undefined;
  const account = `${profile}@${originOf(baseUrl)}`;
  const kr = await (insecure && before === undefined ? undefined : keyring());
  let saved: Saved = { place: 'file' };
  if (!insecure && kr) {
    try {
      await kr.keyringSet(env, account, key);
      saved = { place: 'keyring', account };
    } catch (error) {
      if (!(error instanceof kr.KeyringUnavailable)) throw error;
      saved = { place: 'file', unavailable: error.message };
    }
  }
  store.change(
    profile,
    saved.place === 'keyring'
      ? { apiKeyIn: 'keyring', apiKey: undefined, baseUrl }
      : { apiKey: key, apiKeyIn: undefined, baseUrl },
  );
  if (kr && before !== undefined && (saved.place === 'file' || before !== account)) {
    // Best effort: the settings no longer point at it, and a store that cannot be used now
    // (the reason the key went to the file) cannot be asked to forget it either.
    await kr.keyringDelete(env, before).catch(() => false);
  }
  return saved;
}

/** What `removeStoredKey` did. */
interface Removed {
  had: boolean;
  /** The keyring's entry that may still hold the key, and why, when it could not be removed. */
  left?: { account: string; why: string };
  /**
   * The account whose entry the keyring did not show: removed by hand before, or hidden by a
   * locked Secret Service (which shows only what is unlocked, and then removes nothing).
   */
  unseen?: string;
}

/** Removes the profile's key from wherever it is kept. */
export async function removeStoredKey(store: ConfigStore, profile: string, env: Io['env']): Promise<Removed> {
  const place = keyPlace(store, profile);
  if (place === undefined) return { had: false };
  const account = place === 'keyring' ? accountOf(store, profile) : undefined;
  store.change(profile, { apiKey: undefined, apiKeyIn: undefined });
  if (!account) return { had: true };
  const { keyringDelete, KeyringUnavailable } = await keyring();
  try {
    return (await keyringDelete(env, account)) ? { had: true } : { had: true, unseen: account };
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    return { had: true, left: { account, why: error.message } };
  }
}

/** The warning for an entry the keyring did not show when it was to be removed. */
export const unseenInKeyring = (account: string) =>
  `The system keyring showed no entry for account ${account} of service profile-articles: it was removed already, or the keyring is locked and the entry remains there.${removeByHand(account)}`;

/** The error for a keyring entry that may still hold a key the settings no longer point at. */
export const leftInKeyring = (left: { account: string; why: string }) =>
  new CliError(
    `The settings file no longer points at the key, but the system keyring could not remove its entry (${left.why}): account ${left.account} of service profile-articles may still hold it.${removeByHand(left.account)}`,
    ExitCode.Failure,
    'Run the command again once the keyring is unlocked.',
  );

/**
 * `config set base-url` on a profile whose key is in the keyring: the entry is named by the
 * origin, so it moves to the new origin's account (the user's own choice, said by the caller).
 * A keyring that cannot be used changes nothing, the origin included.
 */
export async function moveKeyringEntry(
  store: ConfigStore,
  profile: string,
  baseUrl: string,
  env: Io['env'],
): Promise<void> {
  const from = accountOf(store, profile);
  const to = `${profile}@${originOf(baseUrl)}`;
  if (from === to || from === undefined) {
    store.set(profile, 'baseUrl', baseUrl);
    return;
  }
  const key = await readStoredKey(store, profile, env).catch((error: unknown) => {
    if (error instanceof CliError)
      throw new CliError(
        `${error.message} Its entry cannot move to the new origin, so nothing was changed.`,
        ExitCode.Failure,
        error.hint,
      );
    throw error;
  });
  const { keyringSet, keyringDelete, KeyringUnavailable } = await keyring();
  try {
    await keyringSet(env, to, key ?? '');
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    throw new CliError(
      `The system keyring could not store the key under the new origin (${error.message}), so nothing was changed.`,
      ExitCode.Failure,
      hint(profile),
    );
  }
  store.set(profile, 'baseUrl', baseUrl);
  await keyringDelete(env, from).catch(() => false);
}
