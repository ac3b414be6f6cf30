// The crash-safe state file: append-only JSON Lines, each record written and fsync'd before
// the request it announces is sent. A torn last line (a crash mid-write) is cut off on open,
// but only in a file batch wrote: any other file --state names is refused before a byte changes.

import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync } from 'node:fs';
import { writeWhole } from '@profile-articles/mock-server/files';
import { safeJson } from '@profile-articles/sdk/internal/terminal';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { FIRST_LINE_MAX, isOwnFirstLine, type StateRecord } from './state-records.js';

export interface StateFile {
  /** Those read on open, then each one appended. */
  readonly records: readonly StateRecord[];
  append(record: StateRecord): void;
  close(): void;
}

function parseRecords(text: string, path: string): { records: StateRecord[]; validBytes: number } {
  const records: StateRecord[] = [];
  let offset = 0;
  let line = 0;
  while (offset < text.length) {
    const newline = text.indexOf('\n', offset);
    // No newline: the last write was torn. Everything before it stands.
    if (newline === -1) break;
    line++;
    const raw = text.slice(offset, newline);
    if (raw.trim() !== '') {
      try {
        records.push(JSON.parse(raw) as StateRecord);
      } catch {
        throw new CliError(
          `The state file ${path} is damaged at line ${line}.`,
          ExitCode.Failure,
          'It is written by batch only; restore it, or start again with a new --state file.',
        );
      }
    }
    offset = newline + 1;
  }
  return { records, validBytes: Buffer.byteLength(text.slice(0, offset)) };
}

function notOurs(path: string): CliError {
  return new CliError(
    `${path} is not a batch state file: batch left it as it is.`,
    ExitCode.Usage,
    'Name a new file with --state (batch creates it), or the state file of an earlier batch.',
  );
}

/** Empty, or starting with the `batch` record (whole or torn): read no more of a file than that. */
function checkOurs(fd: number, path: string): void {
  if (!fstatSync(fd).isFile()) throw notOurs(path);
  const head = Buffer.alloc(FIRST_LINE_MAX + 1);
  const length = readSync(fd, head, 0, head.length, 0);
  const text = head.subarray(0, length).toString('latin1');
  const newline = text.indexOf('\n');
  if (length > 0 && !isOwnFirstLine(newline === -1 ? text : text.slice(0, newline), newline !== -1)) {
    throw notOurs(path);
  }
}

function openFile(path: string): number {
  try {
    // Creates a missing file; appends only, so opening changes nothing in an existing one.
    return openSync(path, 'a+', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw notOurs(path);
    throw error;
  }
}

export function openStateFile(path: string): StateFile {
  const fd = openFile(path);
  let records: StateRecord[];
  /** The file's length up to its last whole record: a failed append is cut back to it. */
  let size: number;
  try {
    checkOurs(fd, path);
    const read = parseRecords(readFileSync(fd, 'utf8'), path);
    records = read.records;
    size = read.validBytes;
    if (fstatSync(fd).size !== read.validBytes) {
      ftruncateSync(fd, read.validBytes);
      fsyncSync(fd);
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return {
    records,
    append(record) {
      // safeJson: a server's error text may hold C1 or bidi controls, and a person may `cat` this file.
      const line = Buffer.from(`${safeJson(record)}\n`);
      try {
        // Every byte, or the system's reason (a full disk): a short write is not a record.
        writeWhole(fd, line);
        // On disk before the request goes out: a crash right after still finds the key.
        fsyncSync(fd);
      } catch (error) {
        // Cut back to the last whole record, so the next append does not follow a torn one.
        ftruncateSync(fd, size);
        throw error;
      }
      size += line.length;
      records.push(record);
    },
    close: () => closeSync(fd),
  };
}
