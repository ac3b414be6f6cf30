// One writer of the settings file at a time: login, logout, `config set` and `config unset`
// (and any later command that changes it) take `config.json.lock` before they read the file
// afresh and write it, so two runs at once never lose each other's settings. A run that cannot
// take the lock fails saying nothing was written: it never reports a write that did not happen.
// The lock is the mock's (data/lock.ts, as batch/lock.ts uses): it names its holder's pid, boot
// and PID namespace, so a holder here that still runs is never taken over, however long it
// stalls under the lock (Ctrl-Z, a slow NFS), and one that is gone is taken over at once.
import { type HeldLock, LockHeldError, NotALockError, takeLock } from '@profile-articles/mock-server/files';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';

/** How long a run waits for another's write (milliseconds); each takes a few. */
const WAIT_MS = 5_000;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Held while `write` runs: `stillOurs()` says whether the lock is still this run's. */
export interface SettingsLock {
  stillOurs(): boolean;
}

const nothingWritten = (why: string, hint?: string) =>
  new CliError(`${why}, so nothing was written.`, ExitCode.Failure, hint);

/** Runs `write` holding the settings file's lock; throws CliError (exit 1) when another run keeps it. */
export function withSettingsLock<T>(settingsPath: string, write: (lock: SettingsLock) => T): T {
  const path = `${settingsPath}.lock`;
  const started = Date.now();
  let release: HeldLock;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    try {
      release = takeLock(path);
      break;
    } catch (error) {
      if (error instanceof NotALockError)
        throw nothingWritten(`${path} is not a settings lock`, 'Move it away, then run the command again.');
      if (!(error instanceof LockHeldError)) {
        // The lock could not be written (a full disk): takeLock left no lock file behind.
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw nothingWritten(`Could not write the settings lock ${path} (${code})`);
      }
      if (Date.now() - started > WAIT_MS) {
        const { pid, here } = error.holder;
        throw nothingWritten(
          `Another profile-articles (pid ${pid}${here ? '' : ' in another container, PID namespace or boot'}) is changing the settings file ${settingsPath}`,
          `Run the command again once it is done. If no profile-articles is running, delete ${path}.`,
        );
      }
    }
    // A synchronous sleep: the store's methods are synchronous, and the wait is short.
    Atomics.wait(pause, 0, 0, wait);
  }
  try {
    return write({ stillOurs: () => release.stillHeld() });
  } finally {
    release();
  }
}
