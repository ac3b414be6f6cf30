// A file the user asked for (`read -o FILE`): whole or not at all. The text is written to a
// temporary file beside it and moved into place, so that a failure leaves nothing behind; without
// --force an existing file is never replaced, even one that appears while the answer is on its way.
import { closeSync, constants, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeWhole } from '@profile-articles/mock-server/files';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';

/** Before anything is paid for: a file that must not be replaced, or a folder that is not there. */
export function checkTarget(path: string, force: boolean): void {
  let target: ReturnType<typeof statSync> | undefined;
  try {
    target = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(path, error);
  }
  if (target?.isDirectory()) throw new CliError(`${path} is a folder: name a file.`, ExitCode.Usage);
  if (target && !force) {
    throw new CliError(`${path} already exists.`, ExitCode.Usage, 'Pass --force to replace it.');
  }
  let folder: ReturnType<typeof statSync> | undefined;
  try {
    folder = statSync(dirname(path));
  } catch {
    // reported below
  }
  if (!folder?.isDirectory()) throw new CliError(`The folder of ${path} does not exist.`, ExitCode.Usage);
}

export function saveFile(path: string, text: string, force: boolean): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeNew(temporary, text);
    // link() refuses an existing name (atomically), where rename() would replace it.
    if (force) renameSync(temporary, path);
    else linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !force) {
      throw new CliError(`${path} already exists.`, ExitCode.Usage, 'Pass --force to replace it.');
    }
    throw fileError(path, error);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** A new file only (never through a link), every byte checked and flushed before it is moved into place. */
function writeNew(path: string, text: string): void {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o666,
  );
  try {
    writeWhole(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fileError(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new CliError(`Could not write ${path} (${code}).`, ExitCode.Failure);
}
