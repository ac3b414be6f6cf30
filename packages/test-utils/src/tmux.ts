// A real terminal for tests: a detached tmux session running one shell command, read by
// screen captures. Session names carry the test process's pid so parallel runs never clash.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

let sessions = 0;

export interface TerminalOptions {
  /**
   * Run on a tmux server of its own with `set-clipboard on`, so that OSC 52 from a program
   * writes a paste buffer (`buffers()`). tmux's default ignores it, which would hide an escape
   * that writes the clipboard; a server of its own keeps the option and the buffers away from
   * every other test's terminal.
   */
  clipboard?: boolean;
}

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
  /** The pane's title, which a program sets with OSC 0 or OSC 2. */
  title(): string;
  /** The contents of the server's paste buffers, newest first (OSC 52 adds one under `clipboard`). */
  buffers(): string[];
  close(): void;
}

/**
 * Runs `command` in a fresh tmux session; the command should end with `; echo EXIT=$?; sleep 30`.
 * Call it inside a test: the session is closed when that test ends, however it ends.
 */
export function openTerminal(
  command: string,
  size = { columns: 120, rows: 40 },
  options: TerminalOptions = {},
): Terminal {
  const name = `pa-${process.pid}-${++sessions}`;
  const server: string[] = [];
  const folder = options.clipboard ? mkdtempSync(join(tmpdir(), 'pa-tmux-')) : undefined;
  if (folder) {
    // Read when the server starts, before the command can print anything.
    writeFileSync(join(folder, 'tmux.conf'), 'set-option -s set-clipboard on\n');
    // A socket in the folder too: tmux leaves its socket file behind when the server exits.
    server.push('-S', join(folder, 'socket'), '-f', join(folder, 'tmux.conf'));
  }
  const tmux = (args: string[]) => execFileSync('tmux', [...server, ...args], { encoding: 'utf8' });
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
      execFileSync('tmux', [...server, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      break;
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? '');
      if (attempt === 5 || !said.includes('server exited unexpectedly')) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100 * attempt);
    }
  }
  const seen: string[] = [];
  let closed = false;
  const screen = (escapes = false) => tmux(['capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', name]);
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
    type: (text) => void tmux(['send-keys', '-t', name, '-l', text]),
    keys: (...names) => void tmux(['send-keys', '-t', name, ...names]),
    title: () => tmux(['display-message', '-p', '-t', name, '#{pane_title}']).replace(/\n$/, ''),
    buffers: () => {
      const names = tmux(['list-buffers', '-F', '#{buffer_name}']).split('\n').filter(Boolean);
      return names.map((buffer) => tmux(['show-buffer', '-b', buffer]));
    },
    close: () => {
      if (closed) return;
      closed = true;
      spawnSync('tmux', [...server, 'kill-session', '-t', name]);
      if (folder) rmSync(folder, { recursive: true, force: true });
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
