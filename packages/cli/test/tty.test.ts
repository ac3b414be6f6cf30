// The spinner as a person sees it: in a real terminal (tmux), and never in a pipe.
import { hasTmux, openTerminal } from '@profile-articles/test-utils/tmux';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

// Jobs move only when a test moves the mock's clock, once the screen shows the status before:
// each status is on screen for as long as the test needs to see it, however slow the machine.
const STEP = 600_000;
const h = useCliMock({
  accounts: [{ id: 'main', apiKeys: [KEYS.main], credits: 1000 }],
  jobs: { queuedMs: STEP, runningMs: STEP },
});

const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const envOf = (extra = '') =>
  `PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_CONFIG_DIR=${h.configDir}${extra}`;

describe('spinner', () => {
  it.runIf(hasTmux)(
    'shows the job status and elapsed time on a terminal, and the article at the end',
    async () => {
      const command = `env -u CI ${envOf(' PROFILE_ARTICLES_POLL_INTERVAL=0.2')} ${process.execPath} ${BIN} generate ada-lovelace; echo EXIT=$?; sleep 30`;
      const terminal = openTerminal(command, { columns: 160, rows: 50 });
      let last: string;
      try {
        await terminal.waitFor(/Generating ada-lovelace: queued · /);
        h.server.service.advanceClock(STEP + 1);
        await terminal.waitFor(/Generating ada-lovelace: running · /);
        h.server.service.advanceClock(STEP + 1);
        last = await terminal.waitFor('EXIT=');
      } finally {
        terminal.close();
      }
      const screens = terminal.seen;
      const spinning = screens.filter((s) =>
        /Generating ada-lovelace: (queued|running) · \d+ s · (next check in \d+ s|checking now)/.test(s),
      );
      expect(spinning.length).toBeGreaterThan(0);
      expect(spinning.some((s) => SPINNER_FRAMES.test(s))).toBe(true);
      expect(screens.some((s) => /running/.test(s))).toBe(true);
      expect(last).toContain('EXIT=0');
      expect(last).toContain('Sources');
      // The spinner line is gone once the article is printed.
      expect(last).not.toMatch(/Generating ada-lovelace: (queued|running)/);
    },
  );

  it.runIf(hasTmux)('login reads the key from a hidden prompt, never echoing it', async () => {
    const command = `env PROFILE_ARTICLES_CONFIG_DIR=${h.configDir} ${process.execPath} ${BIN} login --base-url ${h.server.url}; echo EXIT=$?; sleep 30`;
    const terminal = openTerminal(command, { columns: 120, rows: 20 });
    try {
      await terminal.waitFor('API key:');
      terminal.type(KEYS.main);
      terminal.keys('Enter');
      const screen = await terminal.waitFor('EXIT=');
      expect(screen).toContain('Logged in to');
      expect(screen).toContain('EXIT=0');
      expect(screen).not.toContain(KEYS.main);
    } finally {
      terminal.close();
    }
  });

  it.runIf(hasTmux)('colours a terminal, and not with NO_COLOR', async () => {
    expect((await h.run(['generate', 'ada-lovelace', '--no-wait'])).code).toBe(0);
    h.server.service.advanceClock(2 * STEP + 1);
    const screenOf = async (noColor: boolean) => {
      const command = `env -u CI ${envOf(noColor ? ' NO_COLOR=1' : '')} ${process.execPath} ${BIN} read ada-lovelace; echo EXIT=$?; sleep 30`;
      const terminal = openTerminal(command, { columns: 160, rows: 60 });
      try {
        await terminal.waitFor('EXIT=');
        return terminal.screen(true);
      } finally {
        terminal.close();
      }
    };
    const [coloured, plain] = await Promise.all([screenOf(false), screenOf(true)]);
    expect(coloured).toContain('EXIT=0');
    expect(coloured).toContain('\u001b[');
    expect(plain).toContain('EXIT=0');
    expect(plain).toContain('Ada Lovelace');
    expect(plain).not.toContain('\u001b[');
  });

  it('prints no spinner, no escape codes and no frames into a pipe', async () => {
    const result = await h.cli(['generate', 'grace-hopper'], {
      env: { CI: undefined, PROFILE_ARTICLES_POLL_INTERVAL: '0.2' },
      onOutput: { match: /queued/, run: () => h.server.service.advanceClock(2 * STEP + 1) },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(SPINNER_FRAMES);
    expect(result.stderr + result.stdout).not.toContain('\u001b[');
    // Progress in a pipe is a plain line per status ("Generating x: queued"), never the spinner's ticking text.
    expect(result.stderr).not.toMatch(/Generating .* · \d+ s/);
  });
});
