// The hidden prompt's order of steps: a terminal echoes what is typed until raw mode is on, so
// the prompt, which tells a person to type, must not reach the screen before echo is off.
// CI once caught it the other way round: under load the process was paused between writing
// "API key: " and turning echo off, and tmux showed the half-typed key.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { QuietInterrupt } from '../errors/errors.js';
import type { Io } from './io.js';
import { readSecret } from './prompt.js';

function fakeTerminal() {
  const steps: string[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => steps.push(`raw ${mode}`),
  });
  const io: Io = {
    stdin,
    stdout: { write: () => true },
    stderr: { isTTY: true, write: (chunk: string) => steps.push(`write ${JSON.stringify(chunk)}`) },
    env: {},
  };
  return { io, stdin, steps };
}

describe('readSecret on a terminal', () => {
  it('turns echo off before it shows the prompt, and back on before the line ends', async () => {
    const { io, stdin, steps } = fakeTerminal();
    const secret = readSecret(io, 'API key: ');
    stdin.write('pa_se\u007fecret\r');
    await expect(secret).resolves.toBe('pa_secret');
    expect(steps).toEqual(['raw true', 'write "API key: "', 'raw false', 'write "\\n"']);
  });

  it('Ctrl-C ends it quietly with echo back on', async () => {
    const { io, stdin, steps } = fakeTerminal();
    const secret = readSecret(io, 'API key: ');
    stdin.write('pa_half\u0003');
    await expect(secret).rejects.toBeInstanceOf(QuietInterrupt);
    expect(steps).toEqual(['raw true', 'write "API key: "', 'raw false', 'write "\\n"']);
  });
});
