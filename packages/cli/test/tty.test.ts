// The spinner as a person sees it: in a real terminal (tmux), and never in a pipe.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

const h = useCliMock({
  accounts: [{ id: 'main', apiKeys: [KEYS.main], credits: 1000 }],
  jobs: { queuedMs: 1500, runningMs: 1500 },
});

const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

describe('spinner', () => {
  it.runIf(hasTmux)(
    'shows the job status and elapsed time on a terminal, and the article at the end',
    async () => {
      const session = `pa-tty-${process.pid}`;
      const env = `PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_POLL_INTERVAL=0.2 PROFILE_ARTICLES_CONFIG_DIR=${h.configDir}`;
      const command = `env -u CI ${env} ${process.execPath} ${BIN} generate ada-lovelace; echo EXIT=$?; sleep 30`;
      execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '160', '-y', '50', command]);
      const screens: string[] = [];
      try {
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline) {
          const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
          screens.push(screen);
          if (screen.includes('EXIT=')) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        spawnSync('tmux', ['kill-session', '-t', session]);
      }
      const spinning = screens.filter((s) =>
        /Generating ada-lovelace: (queued|running) · \d+ s · (next check in \d+ s|checking now)/.test(s),
      );
      expect(spinning.length).toBeGreaterThan(0);
      expect(spinning.some((s) => SPINNER_FRAMES.test(s))).toBe(true);
      expect(screens.some((s) => /running/.test(s))).toBe(true);
      const last = screens.at(-1)!;
      expect(last).toContain('EXIT=0');
      expect(last).toContain('Sources');
      // The spinner line is gone once the article is printed.
      expect(last).not.toMatch(/Generating ada-lovelace: (queued|running)/);
    },
  );

  it.runIf(hasTmux)('login reads the key from a hidden prompt, never echoing it', async () => {
    const session = `pa-login-${process.pid}`;
    const command = `env PROFILE_ARTICLES_CONFIG_DIR=${h.configDir} ${process.execPath} ${BIN} login --base-url ${h.server.url}; echo EXIT=$?; sleep 30`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '20', command]);
    const capture = () => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!capture().includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return capture();
    };
    try {
      await waitFor('API key:');
      execFileSync('tmux', ['send-keys', '-t', session, '-l', KEYS.main]);
      execFileSync('tmux', ['send-keys', '-t', session, 'Enter']);
      const screen = await waitFor('EXIT=');
      expect(screen).toContain('Logged in to');
      expect(screen).toContain('EXIT=0');
      expect(screen).not.toContain(KEYS.main);
    } finally {
      spawnSync('tmux', ['kill-session', '-t', session]);
    }
  });

  it.runIf(hasTmux)('colours a terminal, and not with NO_COLOR', async () => {
    await h.cli(['generate', 'ada-lovelace', '--no-wait']);
    h.server.service.advanceClock(5000);
    const screenOf = async (noColor: boolean) => {
      const session = `pa-color-${process.pid}-${noColor}`;
      const env = `PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_CONFIG_DIR=${h.configDir}${noColor ? ' NO_COLOR=1' : ''}`;
      execFileSync('tmux', [
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        '160',
        '-y',
        '60',
        `env -u CI ${env} ${process.execPath} ${BIN} read ada-lovelace; echo EXIT=$?; sleep 30`,
      ]);
      try {
        const deadline = Date.now() + 10_000;
        let screen = '';
        while (!screen.includes('EXIT=') && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          screen = execFileSync('tmux', ['capture-pane', '-e', '-p', '-t', session], { encoding: 'utf8' });
        }
        return screen;
      } finally {
        spawnSync('tmux', ['kill-session', '-t', session]);
      }
    };
    const coloured = await screenOf(false);
    expect(coloured).toContain('EXIT=0');
    expect(coloured).toContain('\u001b[');
    const plain = await screenOf(true);
    expect(plain).toContain('EXIT=0');
    expect(plain).toContain('Ada Lovelace');
    expect(plain).not.toContain('\u001b[');
  });

  it('prints no spinner, no escape codes and no frames into a pipe', async () => {
    const result = await h.cli(['generate', 'grace-hopper'], {
      env: { CI: undefined, PROFILE_ARTICLES_POLL_INTERVAL: '0.2' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(SPINNER_FRAMES);
    expect(result.stderr + result.stdout).not.toContain('\u001b[');
    // Progress in a pipe is a plain line per status ("Generating x: queued"), never the spinner's ticking text.
    expect(result.stderr).not.toMatch(/Generating .* · \d+ s/);
  });
});
