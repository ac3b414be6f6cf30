// The data folder before anything in it is read or written: made owner-only when the mock
// creates it, refused when someone else could change what it holds (as ssh refuses a ~/.ssh
// that others may write), and cleared of the temporaries a crash left there.
import * as fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../rules/config-error.js';
import { removeLeftover } from './durable-file.js';

/** The temporaries a snapshot or a new journal is written to before its rename (data/folder.ts). */
const TEMPORARIES = ['snapshot.json.tmp', 'journal.log.tmp'] as const;

const FOLDER_MODE = 0o700;

/** How the refusals name the folder and its user: the mock's data folder, or the CLI's settings folder. */
export interface FolderWords {
  folder: string;
  user: string;
  /** What someone else could then change. */
  reads: string;
  instead: string;
}
const DATA_FOLDER: FolderWords = {
  folder: 'the data folder',
  user: "this mock's user",
  reads: 'what the mock reads and writes there',
  instead: 'Give --data a folder of your own',
};

/** Creates `dir` (0700, whatever the umask) or checks the one there; throws ConfigError saying what fixes it. */
export function prepareDataFolder(dir: string, words: FolderWords = DATA_FOLDER): void {
  let created: string | undefined;
  try {
    created = fs.mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
    // The umask narrows mkdir's mode; the folder must be exactly the owner's.
    if (created !== undefined) fs.chmodSync(dir, FOLDER_MODE);
  } catch (error) {
    throw new ConfigError(`Cannot use ${dir} as ${words.folder} (${(error as NodeJS.ErrnoException).code})`);
  }
  // Windows has neither owners by uid nor these mode bits (every folder shows as 0666).
  if (process.platform === 'win32') return;
  if (created === undefined) checkExisting(dir, words);
  // As ssh checks ~/.ssh's: whoever may change an ancestor may swap the folder for their own.
  // Both the path as given and the one it resolves to (a link of ours may lead elsewhere).
  checkAncestors(dir, words);
  checkAncestors(fs.realpathSync(dir), words);
}

/**
 * Refuses an ancestor of `dir` that another user (root excepted) owns, or that its group or
 * others may write without the sticky bit (/tmp, 1777, is fine: nobody can rename what is not
 * theirs there).
 */
function checkAncestors(dir: string, words: FolderWords): void {
  const uid = process.geteuid?.();
  for (let at = dirname(resolve(dir)); ; at = dirname(at)) {
    const stats = fs.lstatSync(at);
    if (uid !== undefined && stats.uid !== uid && stats.uid !== 0)
      throw new ConfigError(
        `Refusing ${words.folder} ${dir}: its ancestor ${at} belongs to user ${stats.uid}, who could then replace the folder with one of their own. ` +
          `${words.instead}, in folders only you can change, or take this one: chown ${uid} ${at}`,
      );
    if (!stats.isSymbolicLink() && (stats.mode & 0o022) !== 0 && (stats.mode & 0o1000) === 0)
      throw new ConfigError(
        `Refusing ${words.folder} ${dir}: others may write in its ancestor ${at}, and could then replace the folder with one of their own. ` +
          `Fix it with: chmod go-w ${at} (or chmod +t ${at}, as /tmp is)`,
      );
    if (dirname(at) === at) return;
  }
}

/** An existing folder keeps its mode; refused only when another user owns it or others may write it. */
function checkExisting(dir: string, words: FolderWords): void {
  const uid = process.geteuid?.();
  // The name itself first: a link another user planted there (/tmp/shared/data -> a victim's
  // folder) is refused, never followed. A link of our own is followed.
  const link = fs.lstatSync(dir);
  if (link.isSymbolicLink() && uid !== undefined && link.uid !== uid && link.uid !== 0)
    throw new ConfigError(
      `Refusing ${words.folder} ${dir}: it is a link that belongs to user ${link.uid}, not to ${words.user} ${uid}, ` +
        `who could then point it at any folder. ${words.instead}, or replace the link with one of yours (rm ${dir}), or take it: chown -h ${uid} ${dir}`,
    );
  const stats = fs.statSync(dir);
  if (!stats.isDirectory()) throw new ConfigError(`Cannot use ${dir} as ${words.folder}: it is not a folder`);
  if (uid !== undefined && stats.uid !== uid) {
    throw new ConfigError(
      `Refusing ${words.folder} ${dir}: it belongs to user ${stats.uid}, not to ${words.user} ${uid}, ` +
        `who could then change ${words.reads}. ` +
        `${words.instead}, or take this one: chown ${uid} ${dir}`,
    );
  }
  if ((stats.mode & 0o022) !== 0) {
    const who =
      (stats.mode & 0o020) !== 0 ? ((stats.mode & 0o002) !== 0 ? 'group and others' : 'its group') : 'others';
    throw new ConfigError(
      `Refusing ${words.folder} ${dir}: ${who} may write in it, and could then change ${words.reads}. ` +
        `Fix it with: chmod go-w ${dir}`,
    );
  }
}

/**
 * Removes the temporaries a crash (kill -9 during a snapshot) left, before the folder is used:
 * each is made exclusively, so one left there would block the next. Unlinked, never opened: a
 * link planted there goes, and what it pointed at is untouched.
 */
export function removeLeftoverTemporaries(dir: string): void {
  for (const name of TEMPORARIES) removeLeftover(join(dir, name));
}

/** The files a start reads and then writes: none may be another user's or have a name outside. */
const KEPT_FILES = ['snapshot.json', 'journal.log', 'mock.lock'] as const;

/**
 * Refuses a file the folder holds (snapshot.json, journal.log, mock.lock) that is not a regular
 * file, belongs to another user, or has another name (a hard link outside the folder lets its
 * owner read every record and write forged ones); one of ours that others may read or write is
 * made 0600, with `onNote` saying so. Opened without following a link, never for writing.
 */
export function checkFolderFiles(dir: string, onNote: (line: string) => void): void {
  if (process.platform === 'win32') return;
  const uid = process.geteuid?.();
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  for (const name of KEPT_FILES) {
    const path = join(dir, name);
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted there must not hang the start.
      fd = fs.openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (code === 'ELOOP') throw refused(path, 'it is a link, not a file');
      throw error;
    }
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) throw refused(path, 'it is not a regular file');
      if (uid !== undefined && stats.uid !== uid)
        throw refused(path, `it belongs to user ${stats.uid}, not to this mock's user ${uid}`);
      if (stats.nlink > 1 && !onlyRecoveryLinks(dir, name, stats))
        throw refused(
          path,
          `it has ${stats.nlink} links: another name for it, maybe outside the folder, would let whoever holds it read and change it`,
        );
      if ((stats.mode & 0o077) !== 0) {
        fs.fchmodSync(fd, 0o600);
        onNote(
          `Data folder: ${path} was mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}, which lets others read or write it; made it 0600`,
        );
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}

const refused = (path: string, why: string) =>
  new ConfigError(
    `Refusing the data folder's file ${path}: ${why}, so it is not one this mock can trust; move it away (this mock then starts afresh), or give this mock another --data folder`,
  );

/**
 * Whether a journal's extra links are all journal.log.bad-<time> in the folder: --data-recover
 * links the damaged file there before it replaces it, so a crash in between leaves two names.
 */
function onlyRecoveryLinks(dir: string, name: string, stats: fs.Stats): boolean {
  if (name !== 'journal.log') return false;
  let found = 1;
  for (const entry of fs.readdirSync(dir))
    if (entry.startsWith('journal.log.bad-')) {
      const other = fs.lstatSync(join(dir, entry));
      if (other.ino === stats.ino && other.dev === stats.dev) found++;
    }
  return found === stats.nlink;
}
