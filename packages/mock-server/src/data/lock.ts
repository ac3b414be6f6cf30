// The lock (exported by ./files for the CLI): one process at a time on a file, across containers. Not
// public, like ./internal: it may change in any release, without a major version.
// A bare pid cannot say whether its process runs: two containers sharing a volume see each
// other's pids as gone, or as one of their own (both mocks are pid 1). So a lock names its
// holder's pid, boot id and PID namespace, and the holder touches it every second: a lock from
// this boot and namespace whose pid is gone is taken over at once; any other only once it has
// not been touched for STALE_MS. Used by --data's mock.lock and the CLI's batch state lock;
// imports nothing but node:fs, so neither pays for the rest of the mock.
import * as fs from 'node:fs';

/** A lock that has not been touched for this long is taken over, whoever wrote it. */
export const STALE_MS = 10_000;
const REFRESH_MS = 1_000;
const MAX_LOCK_BYTES = 4096;

export interface LockHolder {
  pid: number;
  /** Runs on this machine's boot and in this PID namespace: its pid is one we can look at. */
  here: boolean;
  /** Since the holder last touched the lock. */
  ageMs: number;
}

/** The lock is held: by whom, as far as the file says. */
export class LockHeldError extends Error {
  override name = 'LockHeldError';
  constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    super(`${path} is held by process ${holder.pid}`);
  }
}

/** A file of the lock's name that is not a lock (another program's, or a link): left as it is. */
export class NotALockError extends Error {
  override name = 'NotALockError';
  constructor(readonly path: string) {
    super(`${path} is not a lock file`);
  }
}

function readOr(path: string, fallback: string): string {
  try {
    return fs.readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/** Where this process runs: its boot and PID namespace ("-" where the system does not say). */
function whereAmI(): { boot: string; pidns: string } {
  let pidns = '-';
  try {
    pidns = String(fs.statSync('/proc/self/ns/pid').ino);
  } catch {
    // Not Linux: no PID namespaces, one boot is all a lock can be from.
  }
  return { boot: readOr('/proc/sys/kernel/random/boot_id', '-'), pidns };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's text: `pid boot-id pid-namespace`, one line. A bare pid is an older lock's. */
const LOCK_TEXT = /^(\d*)(?: ([\w-]+) ([\w-]+))?\n?$/;

/** Writes all of `text` or throws: a short write (a full disk) is not a lock. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  while (done < bytes.length) {
    const wrote = fs.writeSync(fd, bytes, done, bytes.length - done);
    if (wrote <= 0)
      throw Object.assign(new Error(`short write (${done} of ${bytes.length} bytes)`), { code: 'EIO' });
    done += wrote;
  }
}

/** Reads the lock at `path`: its holder, or undefined when it is gone meanwhile. */
function readLock(
  path: string,
  me: { boot: string; pidns: string },
): { holder: LockHolder; ino: number } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new NotALockError(path);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_LOCK_BYTES) throw new NotALockError(path);
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const text = buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0));
    const match = LOCK_TEXT.exec(text);
    if (!match) throw new NotALockError(path);
    const [, digits = '', boot, pidns] = match;
    const pid = Number.parseInt(digits, 10) || 0;
    return {
      ino: stat.ino,
      holder: {
        pid,
        // An older lock, a bare pid, says nothing of where: its pid running here is taken as its
        // holder (as before), and one gone only ages out, since it may run elsewhere.
        here: boot === undefined ? pid > 0 && running(pid) : boot === me.boot && pidns === me.pidns,
        ageMs: Date.now() - stat.mtimeMs,
      },
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** The locks this process holds (by inode): a second taker in the same process is refused too. */
const heldHere = new Set<number>();

/** Whether the holder is gone: at once when it ran here, else once it stopped touching the lock. */
function isStale(holder: LockHolder, ino: number): boolean {
  if (heldHere.has(ino)) return false;
  // A holder here whose pid runs is never taken over, however long it stalls (Ctrl-Z, slow NFS):
  // its write may still land. Our own pid, in a lock this process does not hold: an earlier one.
  if (holder.here && holder.pid !== 0) return holder.pid === process.pid || !running(holder.pid);
  // An empty lock is one being written (or whose writer died at once), and one from elsewhere
  // cannot be looked at: only its age says.
  return holder.ageMs > STALE_MS;
}

/**
 * Takes the lock at `path` (created exclusively, never through a link, 0600), or throws
 * LockHeldError, NotALockError, or the error that kept it from being written. The returned
 * function lets it go (only if it is still ours).
 */
export function takeLock(path: string): () => void {
  const me = whereAmI();
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
      fd = fs.openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = readLock(path, me);
      if (!held) continue; // let go meanwhile
      if (!isStale(held.holder, held.ino)) throw new LockHeldError(path, held.holder);
      // Taken over only if it is still the file judged stale: another taker may have beaten us.
      if (readLock(path, me)?.ino === held.ino) fs.rmSync(path, { force: true });
      continue;
    }
    return holdLock(path, fd, me);
  }
  throw new Error(`Could not take the lock ${path}: other processes keep taking it`);
}

function holdLock(path: string, fd: number, me: { boot: string; pidns: string }): () => void {
  const ino = fs.fstatSync(fd).ino;
  heldHere.add(ino);
  try {
    fs.fchmodSync(fd, 0o600); // whatever the umask
    writeAll(fd, `${process.pid} ${me.boot} ${me.pidns}\n`);
    fs.fsyncSync(fd);
  } catch (error) {
    heldHere.delete(ino);
    fs.closeSync(fd);
    fs.rmSync(path, { force: true });
    throw error;
  }
  // Touched every second, so a process that cannot see our pid still knows we run.
  const timer = setInterval(() => {
    try {
      const now = new Date();
      fs.futimesSync(fd, now, now);
    } catch {
      // Gone or not ours any more: nothing to keep fresh.
    }
  }, REFRESH_MS);
  timer.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(ino);
    clearInterval(timer);
    fs.closeSync(fd);
    try {
      // Only our own file: a lock taken over from us is its new holder's.
      if (fs.lstatSync(path).ino === ino) fs.unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
}
