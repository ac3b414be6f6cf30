// Reads a secret: from a hidden prompt on a terminal, or the first line of piped stdin.
import { QuietInterrupt } from '../errors/errors.js';
import type { Io } from './io.js';

/** The first line, as soon as it is complete: a pipe that stays open must not hang us. */
function readFirstLine(stdin: Io['stdin']): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const finish = (result: string | Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      data += String(chunk);
      const end = data.indexOf('\n');
      if (end >= 0) finish(data.slice(0, end).replace(/\r$/, ''));
    };
    const onEnd = () => finish(data.replace(/\r?\n?$/, ''));
    const onError = (error: Error) => finish(error);
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
    stdin.resume();
  });
}

function readHidden(io: Io, prompt: string): Promise<string> {
  const { stdin, stderr } = io;
  return new Promise((resolve, reject) => {
    let value = '';
    // Echo off first, as getpass(3) does: a key typed as soon as the prompt shows must not be
    // echoed, even if this process is paused between the two steps on a busy machine.
    stdin.setRawMode?.(true);
    stderr.write(prompt);
    stdin.resume();
    const done = (result: string | Error) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return done(value);
        // Ctrl-C and Ctrl-D: the person changed their mind; nothing to report.
        if (ch === '\u0003' || ch === '\u0004') return done(new QuietInterrupt());
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export function readSecret(io: Io, prompt: string): Promise<string> {
  return io.stdin.isTTY ? readHidden(io, prompt) : readFirstLine(io.stdin);
}
