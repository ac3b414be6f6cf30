// One writer of the settings file at a time: login, logout, `config set` and `config unset`
// (and any later command that changes it) take `config.json.lock` before they read the file
// afresh and write it, so two runs at once never lose each other's settings. A run that cannot
// take the lock fails saying nothing was written: it never reports a write that did not happen.
// Not the batch lock (batch/lock.ts): this one is held for a few milliseconds only.
import * as fs from 'node:fs';
import { FILE_MODE, writeWhole } from '@profile-articles/mock-server/files';
import { CliError } from './errors.js';
import { ExitCode } from './exit-codes.js';

/** How long a run waits for another's write (milliseconds); each takes a few. */
const WAIT_MS = 5_000;
/** A lock this old was left by a run that died mid-write (kill -9): taken over. */
const STALE_MS = 10_000;

const EXCLUSIVE =
  fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
const pause = new Int32Array(new SharedArrayBuffer(4));

function tryLock(path: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(path, EXCLUSIVE, FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeWhole(fd, `${process.pid}\n`);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** Removes a lock older than STALE_MS; true when it did (or the lock has gone meanwhile). */
function clearStale(path: string): boolean {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  if (Date.now() - stats.mtimeMs < STALE_MS) return false;
  fs.rmSync(path, { force: true });
  return true;
}

/** Runs `write` holding the settings file's lock; throws CliError (exit 1) when another run keeps it. */
export function withSettingsLock<T>(settingsPath: string, write: () => T): T {
  const path = `${settingsPath}.lock`;
  const started = Date.now();
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    if (tryLock(path)) break;
    if (clearStale(path)) continue;
    if (Date.now() - started > WAIT_MS) {
      throw new CliError(
        `Another profile-articles is changing the settings file ${settingsPath}, so nothing was written.`,
        ExitCode.Failure,
        `Run the command again. If no other profile-articles is running, delete ${path}.`,
      );
    }
    // A synchronous sleep: the store's methods are synchronous, and the wait is short.
    Atomics.wait(pause, 0, 0, wait);
  }
  try {
    return write();
  } finally {
    fs.rmSync(path, { force: true });
  }
}
