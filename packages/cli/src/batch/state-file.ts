// The crash-safe state file: append-only JSON Lines, each record written and fsync'd before
// the request it announces is sent. A torn last line (a crash mid-write) is cut off on open.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { StateRecord } from './state-records.js';

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

export function openStateFile(path: string): StateFile {
  const fd = openSync(path, 'a+', 0o600);
  const text = readFileSync(fd, 'utf8');
  const { records, validBytes } = parseRecords(text, path);
  if (fstatSync(fd).size !== validBytes) {
    ftruncateSync(fd, validBytes);
    fsyncSync(fd);
  }
  return {
    records,
    append(record) {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      records.push(record);
      // On disk before the request goes out: a crash right after still finds the key.
      fsyncSync(fd);
    },
    close: () => closeSync(fd),
  };
}
