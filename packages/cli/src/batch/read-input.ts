// The list of profile ids: from a file, or from stdin with `--from -`.
import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Io } from '../terminal/io.js';
import type { Operation } from './state-records.js';

export async function readInput(io: Io, from: string): Promise<string> {
  if (from === '-') {
    let text = '';
    for await (const chunk of io.stdin) text += String(chunk);
    return text;
  }
  try {
    return readFileSync(from, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`Cannot read the list ${from}${code ? ` (${code})` : ''}.`, ExitCode.Usage);
  }
}

/** Default state file: named after the input and the operation, in the current folder. */
export function defaultStatePath(from: string, operation: Operation): string {
  const name = basename(from, extname(from)) || 'batch';
  return resolve(`${name}.${operation}.state.jsonl`);
}
