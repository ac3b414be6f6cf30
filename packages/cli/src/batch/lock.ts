// One run per state file: `<state>.lock` is created exclusively and holds the owner's pid.
// A lock left by a process that no longer exists (kill -9, a reboot) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockStateFile(statePath: string): () => void {
  const lockPath = `${statePath}.lock`;
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = readFileSync(lockPath, 'utf8').trim();
      // Ours holds a pid, or nothing when a run died between creating and writing it. Any
      // other file of that name is someone else's: never removed.
      if (!/^\d*$/.test(held)) {
        throw new CliError(
          `${lockPath} is not a batch lock file: batch left it as it is.`,
          ExitCode.Failure,
          'Move it away, or name another state file with --state.',
        );
      }
      const owner = Number.parseInt(held, 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new CliError(
          `Another batch (pid ${owner}) is using the state file ${statePath}.`,
          ExitCode.Failure,
          `Wait for it to finish, or remove ${lockPath} if that process is not a batch.`,
        );
      }
      unlinkSync(lockPath); // stale: its owner is gone
    }
  }
  throw new CliError(`Could not lock the state file ${statePath}.`, ExitCode.Failure);
}
