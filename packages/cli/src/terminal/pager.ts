// Long output on a terminal goes through a pager ($PAGER, else `less`), as git and gh do.
// Loaded only when there is something to page.
import { spawn } from 'node:child_process';
import type { Io } from './io.js';
import { forTerminal } from './terminal-io.js';

/** Pages `text` if it would not fit the terminal; false when it printed nothing (no pager found). */
export function page(text: string, io: Io): Promise<boolean> {
  const command = io.env.PAGER?.trim() || 'less';
  if (command === 'cat') return Promise.resolve(false);
  // less: quit if it fits after all, keep colours, leave the text on screen when it exits.
  const env = { ...io.env, LESS: io.env.LESS ?? 'FRX', LV: io.env.LV ?? '-c' };
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env });
    child.once('error', () => resolve(false));
    child.stdin.on('error', () => {
      // The person quit before reading it all: nothing is wrong.
    });
    child.once('close', (code) => resolve(code !== 127));
    // less writes to the terminal itself, and passes control characters on with -r: the text
    // crosses the same boundary as the CLI's own writes (terminal-io.ts).
    child.stdin.end(forTerminal(`${text}\n`));
  });
}

export function fitsScreen(text: string, io: Io): boolean {
  const rows = io.stdout.rows ?? 24;
  return text.split('\n').length < rows;
}
