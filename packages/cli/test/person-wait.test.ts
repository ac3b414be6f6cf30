// Waiting, as a person sees it in a real terminal (tmux) with the key stored by `login`: Ctrl-C
// during `update`, `job --wait` and `buy --wait` (a clean line, the resume hint, exit 130), `buy --wait`'s
// progress, and plain status lines where the spinner is off (CI, NO_COLOR, a pipe).
import { payCheckoutPage } from '@profile-articles/mock-server';
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

// Jobs stay queued until the test moves the mock's clock: a wait lasts as long as the test wants.
const h = useCliMock({
  accounts: [{ id: 'main', apiKeys: [KEYS.main], credits: 1000 }],
  jobs: { queuedMs: 600_000, runningMs: 600_000 },
});
const node = `${process.execPath} ${BIN}`;
const JOB_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * buy --wait's spinner, in either of its states: polls come every 0.2 s here, so "payment
 * pending" turns into "balance 1000" at once, and a loaded machine's screen may only ever show
 * the second (the test waited for the first until it timed out).
 */
const WAITING_FOR_PAYMENT = /Waiting for 500 credits: (payment pending|balance 1000) · \d+ s · /;

/** Logs in as a person does (the key piped to `login`), and gives the environment left after it. */
async function loggedIn(): Promise<string> {
  const login = await h.run(['login', '--base-url', h.server.url], {
    input: `${KEYS.main}\n`,
    env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined },
  });
  expect(login.code).toBe(0);
  return `env -u CI -u NO_COLOR -u PROFILE_ARTICLES_API_KEY -u PROFILE_ARTICLES_BASE_URL PROFILE_ARTICLES_CONFIG_DIR=${h.configDir} PROFILE_ARTICLES_POLL_INTERVAL=0.2`;
}

/** A finished article for ada-lovelace, so that `update` has something to refresh. */
async function article(): Promise<void> {
  await h.run(['generate', 'ada-lovelace', '--no-wait']);
  h.server.service.advanceClock(1_300_000);
}

/** Ctrl-C while waiting: the spinner line is cleared (no `^C` left), the hint follows, exit 130. */
async function interrupt(command: string, waiting: RegExp): Promise<string[]> {
  const term = openTerminal(`${command}; echo EXIT=$?; sleep 30`);
  try {
    await term.waitFor(waiting);
    term.keys('C-c');
    const lines = screenLines(await term.waitFor('EXIT='));
    expect(lines.join('\n')).not.toContain('^C');
    expect(lines.at(-3)).toMatch(/^Stopped waiting: job [0-9a-f-]{36} keeps running on the server\.$/);
    expect(lines.at(-2)).toMatch(/^Resume with: profile-articles job [0-9a-f-]{36} --wait$/);
    expect(lines.at(-1)).toBe('EXIT=130');
    return lines;
  } finally {
    term.close();
  }
}

describe.runIf(hasTmux)('in a terminal', () => {
  it('Ctrl-C during update: a clean line, the resume hint, exit 130; the job goes on', async () => {
    const env = await loggedIn();
    await article();
    const lines = await interrupt(`${env} ${node} update ada-lovelace`, /Updating ada-lovelace: queued · /);
    const id = JOB_ID.exec(lines.at(-2)!)![0];
    expect(h.server.service.state().jobs.activeFor('ada-lovelace')?.job.job_id).toBe(id);
  });

  it('Ctrl-C during job --wait: the same', async () => {
    const env = await loggedIn();
    const started = await h.run(['generate', 'grace-hopper', '--no-wait', '--json']);
    const id = JSON.parse(started.stdout).job_id;
    const lines = await interrupt(`${env} ${node} job ${id} --wait`, /: queued · \d+ s · /);
    expect(lines.at(-2)).toBe(`Resume with: profile-articles job ${id} --wait`);
  });

  it('buy --wait shows its progress until the payment arrives', async () => {
    const env = await loggedIn();
    const term = openTerminal(`${env} ${node} buy 500 --wait; echo EXIT=$?; sleep 30`);
    try {
      const screen = await term.waitFor(WAITING_FOR_PAYMENT);
      const page = /(http:\S+\/checkout\/cs_test_\w+)/.exec(screen)![1]!;
      await payCheckoutPage(page);
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(lines).toEqual([
        'Pay for 500 credits for $25.00 at:',
        `  ${page}`,
        'Payment received: your balance is 1500 credits.',
        'EXIT=0',
      ]);
    } finally {
      term.close();
    }
  });

  it('Ctrl-C during buy --wait: a clean line, how to check later, exit 130; a payment still counts', async () => {
    const env = await loggedIn();
    const term = openTerminal(`${env} ${node} buy 500 --wait; echo EXIT=$?; sleep 30`);
    try {
      const screen = await term.waitFor(WAITING_FOR_PAYMENT);
      const page = /(http:\S+\/checkout\/cs_test_\w+)/.exec(screen)![1]!;
      term.keys('C-c');
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(lines.join('\n')).not.toContain('^C');
      expect(lines.slice(-3)).toEqual([
        'Stopped waiting for the payment.',
        'Check later with `profile-articles credits`: a payment made still adds its credits.',
        'EXIT=130',
      ]);
      await payCheckoutPage(page);
      expect(h.server.service.balance('main')).toBe(1500);
    } finally {
      term.close();
    }
  });

  it('with the spinner off (NO_COLOR), a plain line on each status change', async () => {
    const env = await loggedIn();
    const term = openTerminal(
      `${env} NO_COLOR=1 ${node} generate grace-hopper --no-pager --timeout 30; echo EXIT=$?; sleep 30`,
      { columns: 120, rows: 150 },
    );
    try {
      await term.waitFor('Generating grace-hopper: queued');
      h.server.service.advanceClock(600_001);
      await term.waitFor('Generating grace-hopper: running');
      h.server.service.advanceClock(600_001);
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(lines.slice(0, 4)).toEqual([
        expect.stringMatching(/^Job [0-9a-f-]{36} started: 100 credits reserved\.$/),
        'Generating grace-hopper: queued',
        'Generating grace-hopper: running',
        'Generating grace-hopper: succeeded',
      ]);
      expect(lines.filter((l) => l.startsWith('Generating'))).toHaveLength(3);
      expect(lines.at(-1)).toBe('EXIT=0');
    } finally {
      term.close();
    }
  });

  it('wraps the sources to the terminal’s width, with a hanging indent', async () => {
    const env = await loggedIn();
    await article();
    const term = openTerminal(`${env} ${node} read ada-lovelace --no-pager; echo EXIT=$?; sleep 30`, {
      columns: 60,
      rows: 60,
    });
    try {
      const lines = screenLines(await term.waitFor('EXIT='));
      const sources = lines.slice(
        lines.indexOf('Sources') + 1,
        lines.findIndex((l) => /credit charged/.test(l)),
      );
      expect(sources.length).toBeGreaterThan(4);
      // tmux would break an unwrapped line anywhere, starting the rest at column 0.
      for (const line of sources) expect(line).toMatch(/^ {2}\[\d+\] |^ {6}\S/);
      expect(sources.some((l) => l.startsWith('      '))).toBe(true);
    } finally {
      term.close();
    }
  });
});

describe('in a pipe', () => {
  it('status changes are plain lines on stderr; stdout holds only the result', async () => {
    let moved = 0;
    const result = await h.run(['generate', 'grace-hopper'], {
      onOutput: (_stdout, stderr) => {
        // Move the clock once per status seen, so the wait sees queued, then running, then the end.
        const seen = (stderr.match(/^Generating grace-hopper: \w+$/gm) ?? []).length;
        if (seen > moved) {
          moved = seen;
          h.server.service.advanceClock(600_001);
        }
      },
    });
    expect(result.code).toBe(0);
    expect(result.stderr.match(/^Generating grace-hopper: \w+$/gm)).toEqual([
      'Generating grace-hopper: queued',
      'Generating grace-hopper: running',
      'Generating grace-hopper: succeeded',
    ]);
    expect(result.stdout).not.toContain('Generating');
    expect(result.stdout).toMatch(/^Sources$/m);
  });
});
