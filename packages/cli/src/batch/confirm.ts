// "Start? [y/N]" on the terminal. The answer is read from the terminal itself (/dev/tty), not
// from stdin, so a list piped in on stdin (`cat ids | profile-articles batch generate --from -`)
// can still be confirmed by the person at the keyboard.
import { openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ReadStream } from 'node:tty';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Io } from '../terminal/io.js';
import { unfiltered } from '../terminal/terminal-io.js';

function terminalInput(io: Io): NodeJS.ReadableStream | undefined {
  if (io.stdin.isTTY) return io.stdin;
  try {
    // A tty.ReadStream, not an fs one: an fs read of a terminal blocks a worker thread until a
    // key is pressed, and would keep the process alive after the batch has finished.
    return new ReadStream(openSync('/dev/tty', 'r'));
  } catch {
    return undefined;
  }
}

export async function confirmOnTerminal(io: Io, question: string): Promise<boolean> {
  const input = terminalInput(io);
  if (!input) {
    throw new CliError(
      'Cannot ask for confirmation: no terminal to read from.',
      ExitCode.Usage,
      'Pass --yes.',
    );
  }
  // readline wants a whole Node stream; with `terminal: false` it writes nothing to it.
  const rl = createInterface({
    input,
    output: unfiltered(io.stderr) as NodeJS.WritableStream,
    terminal: false,
  });
  try {
    io.stderr.write(`${question} [y/N] `);
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
    if (input !== io.stdin) (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
}
