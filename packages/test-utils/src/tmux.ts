// A real terminal for tests: a detached tmux session running one shell command, read by
// screen captures. Session names carry the test process's pid so parallel runs never clash.
import { execFileSync, spawnSync } from 'node:child_process';
import { onTestFinished } from 'vitest';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

let sessions = 0;

export interface Terminal {
  /** The screen as text (with `escapes`, the colour codes too). */
  screen(escapes?: boolean): string;
  /** Every screen seen by `waitFor` so far, oldest first. */
  readonly seen: string[];
  /**
   * Resolves with the screen once it contains `text`, or with the last screen once the terminal
   * is closed. No deadline of its own: on a loaded machine a screen may take long to come, and
   * the test's timeout decides when that is too long (the terminal is closed when its test ends).
   */
  waitFor(text: string | RegExp): Promise<string>;
  type(text: string): void;
  keys(...names: string[]): void;
  close(): void;
}

/**
 * Runs `command` in a fresh tmux session; the command should end with `; echo EXIT=$?; sleep 30`.
 * Call it inside a test: the session is closed when that test ends, however it ends.
 */
export function openTerminal(command: string, size = { columns: 120, rows: 40 }): Terminal {
  const name = `pa-${process.pid}-${++sessions}`;
  const args = [
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    String(size.columns),
    '-y',
    String(size.rows),
    command,
  ];
  // Test files run in parallel on one tmux server, which exits when its last session closes: a
  // session started just then meets a dying server ("server exited unexpectedly"). Start it again.
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('tmux', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      break;
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? '');
      if (attempt === 5 || !said.includes('server exited unexpectedly')) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100 * attempt);
    }
  }
  const seen: string[] = [];
  let closed = false;
  const screen = (escapes = false) =>
    execFileSync('tmux', ['capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', name], {
      encoding: 'utf8',
    });
  const terminal: Terminal = {
    screen,
    seen,
    async waitFor(text) {
      let last = screen();
      seen.push(last);
      while (!(typeof text === 'string' ? last.includes(text) : text.test(last)) && !closed) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (closed) break;
        last = screen();
        seen.push(last);
      }
      return last;
    },
    type: (text) => execFileSync('tmux', ['send-keys', '-t', name, '-l', text]),
    keys: (...names) => execFileSync('tmux', ['send-keys', '-t', name, ...names]),
    close: () => {
      closed = true;
      spawnSync('tmux', ['kill-session', '-t', name]);
    },
  };
  // A test that timed out never reaches its own `finally`: this stops the polling and the session.
  onTestFinished(() => terminal.close());
  return terminal;
}

/** The screen's lines without trailing blanks, for line-by-line assertions. */
export const screenLines = (screen: string) =>
  screen
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => l.trimEnd());
