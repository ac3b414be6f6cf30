// Reads a secret: from a hidden prompt on a terminal, or the first line of piped stdin.
import type { Io } from './io.js';

async function readPiped(stdin: Io['stdin']): Promise<string> {
  let data = '';
  for await (const chunk of stdin) data += String(chunk);
  return data.split(/\r?\n/)[0] ?? '';
}

function readHidden(io: Io, prompt: string): Promise<string> {
  const { stdin, stderr } = io;
  stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    stdin.setRawMode?.(true);
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
        if (ch === '\u0003') return done(new Error('interrupted'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export function readSecret(io: Io, prompt: string): Promise<string> {
  return io.stdin.isTTY ? readHidden(io, prompt) : readPiped(io.stdin);
}
