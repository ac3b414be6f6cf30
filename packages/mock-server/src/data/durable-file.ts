// The durable write (exported by ./files for the CLI): the one way the mock and the CLI write a file that
// must survive a crash and a full disk (the mock's snapshot and journal, the CLI's settings and
// batch state). It imports nothing but node:fs, so the CLI loads it without the mock. Not public.
//
// A full disk shows as a short write (RLIMIT_FSIZE, a quota) or an error (ENOSPC, EFBIG, EIO):
// writeSync returns how many bytes went, which may be fewer than asked, so every write here
// goes on until the whole text is written or the system says why not.
import * as fs from 'node:fs';
import { dirname } from 'node:path';

/** Owner-only: what every file the mock or the CLI writes gets, whatever the umask. */
export const FILE_MODE = 0o600;

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY } = fs.constants;
/** A new file only: a name that exists (a planted link among them) fails with EEXIST, never followed. */
const EXCLUSIVE = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** An error with the code a caller shows, for a write the system cut short without saying why. */
function shortWrite(done: number, total: number): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`short write: ${done} of ${total} bytes written`);
  error.code = 'EIO';
  return error;
}

/**
 * Writes all of `data` at the file's position (or at its end, for a file opened to append), or
 * throws the system's error. On a throw some of it may be in the file: the caller cuts it off.
 */
export function writeWhole(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  let done = 0;
  while (done < bytes.length) {
    const wrote = fs.writeSync(fd, bytes, done, bytes.length - done);
    // A write of 0 bytes would loop for ever; a short one is tried again for the rest, which
    // then fails with the reason (EFBIG past a size limit, ENOSPC on a full disk).
    if (wrote <= 0) throw shortWrite(done, bytes.length);
    done += wrote;
  }
}

/** Flushes a folder's entries (a rename, a new file) to disk. */
export function fsyncFolder(dir: string): void {
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A temporary written whole and flushed, not yet in place. */
export interface WrittenTemporary {
  readonly path: string;
  /** Renames it over its target. */
  commit(): void;
  /** Removes it (nothing else changes). */
  discard(): void;
}

/**
 * Writes `data` to `temporary` (default: the target's name with `.tmp`), created exclusively
 * with `mode` (0600 unless a caller writes a file meant for others to read) and never through
 * a link, checks that every byte went, and flushes it. On any failure the temporary is removed
 * and the target is untouched.
 */
export function writeTemporary(
  target: string,
  data: string | Uint8Array,
  temporary = `${target}.tmp`,
  mode = FILE_MODE,
): WrittenTemporary {
  // Created owner-only whatever `mode` is: nobody else can open it before it is whole.
  const fd = fs.openSync(temporary, EXCLUSIVE, FILE_MODE);
  let closed = false;
  try {
    // The mode given to open is narrowed by the umask; the mode asked for is set exactly.
    fs.fchmodSync(fd, mode);
    writeWhole(fd, data);
    fs.fsyncSync(fd);
    closed = true;
    fs.closeSync(fd); // a network file system may report a failed write only here
  } catch (error) {
    if (!closed) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  return {
    path: temporary,
    commit: () => fs.renameSync(temporary, target),
    discard: () => fs.rmSync(temporary, { force: true }),
  };
}

/**
 * Replaces `target` with `data` so that a crash or a full disk leaves the old file or the new,
 * never part of one: exclusive temporary, whole write, fsync, rename, fsync of the folder.
 */
export function replaceFileDurably(
  target: string,
  data: string | Uint8Array,
  temporary?: string,
  mode = FILE_MODE,
): void {
  const written = writeTemporary(target, data, temporary, mode);
  try {
    written.commit();
  } catch (error) {
    written.discard();
    throw error;
  }
  fsyncFolder(dirname(target));
}

/** Removes a temporary a crash left (a link is removed, never followed); nothing when there is none. */
export function removeLeftover(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw error;
  }
}
