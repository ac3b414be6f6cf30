// One run per state file: `<state>.lock`, taken with the mock's own lock
// (@profile-articles/mock-server/lock): it names the owner's pid, boot and PID namespace and is
// touched every second, so a batch in another container sharing the folder is seen as running.
// A lock whose owner ran here and is gone (kill -9) is taken over at once; one from elsewhere,
// or from before a reboot, once nobody has touched it for 10 s. Loaded with the batch command
// only: the lock module imports nothing but node:fs.
import { LockHeldError, NotALockError, STALE_MS, takeLock } from '@profile-articles/mock-server/files';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';

export function lockStateFile(statePath: string): () => void {
  const lockPath = `${statePath}.lock`;
  try {
    return takeLock(lockPath);
  } catch (error) {
    if (error instanceof NotALockError)
      throw new CliError(
        `${lockPath} is not a batch lock file: batch left it as it is.`,
        ExitCode.Failure,
        'Move it away, or name another state file with --state.',
      );
    if (error instanceof LockHeldError) {
      const { pid, here } = error.holder;
      throw new CliError(
        `Another batch (pid ${pid}${here ? '' : ' in another container, PID namespace or boot'}) is using the state file ${statePath}.`,
        ExitCode.Failure,
        here
          ? `Wait for it to finish, or remove ${lockPath} if that process is not a batch.`
          : `Wait for it to finish; a lock it has not refreshed for ${STALE_MS / 1000} s is taken over.`,
      );
    }
    throw new CliError(
      `Could not lock the state file ${statePath} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      ExitCode.Failure,
    );
  }
}
