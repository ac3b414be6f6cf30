// The data folder before anything in it is read or written: made owner-only when the mock
// creates it, refused when someone else could change what it holds (as ssh refuses a ~/.ssh
// that others may write), and cleared of the temporaries a crash left there.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config-error.js';
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
  if (created === undefined) checkExisting(dir, words);
}

/** An existing folder keeps its mode; refused only when another user owns it or others may write it. */
function checkExisting(dir: string, words: FolderWords): void {
  const stats = fs.statSync(dir);
  if (!stats.isDirectory()) throw new ConfigError(`Cannot use ${dir} as ${words.folder}: it is not a folder`);
  // Windows has neither owners by uid nor these mode bits (every folder shows as 0666).
  if (process.platform === 'win32') return;
  const uid = process.geteuid?.();
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
