// A compromised server, as a person meets it in a real terminal (tmux, with `set-clipboard on`:
// tmux's default ignores OSC 52, which would hide a clipboard write). The server is the real
// mock, whose answers, while a command runs in the terminal, carry every attack (title,
// clipboard, clear screen, OSC 8, \r overwrites, C1, bidi) in every string field. Whatever the
// command, the pane's title and the paste buffers stay as they were, and the screen keeps what
// it showed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALL_ESCAPES,
  CLIPBOARD_PAYLOAD,
  hostile,
  hostileStrings,
} from '@profile-articles/test-utils/hostile-strings';
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

/** True while the command in the terminal runs: the tests' own preparation meets an honest mock. */
let compromised = false;
const attacks = hostileStrings(hostile);
// Jobs stay queued until the test moves the mock's clock: the spinner shows for as long as needed.
const h = useCliMock(
  {
    accounts: [{ id: 'main', apiKeys: [KEYS.main], credits: 10_000 }],
    jobs: { queuedMs: 600_000, runningMs: 600_000 },
  },
  (request, response, service) => (compromised ? attacks(request, response, service) : response),
);

const node = `${process.execPath} ${BIN}`;
const SIZE = { columns: 100, rows: 40 };

interface Seen {
  lines: string[];
  /** The lines after `BEFORE` and the Enter that started the CLI. */
  printed: string[];
  titleBefore: string;
  title: string;
  buffers: string[];
}

/**
 * Runs `args` against the compromised mock in a coloured terminal of its own. `BEFORE` is printed
 * first (a cleared screen loses it) and the title is read before the CLI starts; `during` acts
 * on the running command (a pager to quit, a clock to move).
 */
async function inTerminal(
  args: string,
  during: (term: ReturnType<typeof openTerminal>) => Promise<void> = async () => {},
  size = SIZE,
  extraEnv = '',
): Promise<Seen> {
  const env = `env -u CI -u NO_COLOR -u PAGER -u LESS PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_CONFIG_DIR=${h.configDir} PROFILE_ARTICLES_POLL_INTERVAL=0.2 ${extraEnv}`;
  const term = openTerminal(`echo BEFORE; read go; ${env} ${node} ${args}; echo EXIT=$?; sleep 30`, size, {
    clipboard: true,
  });
  try {
    await term.waitFor('BEFORE');
    const titleBefore = term.title();
    compromised = true;
    term.keys('Enter');
    await during(term);
    const lines = screenLines(await term.waitFor('EXIT='));
    const printed = lines.slice(lines.indexOf('BEFORE') + 2);
    return { lines, printed, titleBefore, title: term.title(), buffers: term.buffers() };
  } finally {
    compromised = false;
    term.close();
  }
}

/** Title and paste buffers as they were; unless a pager's page scrolled it away, `BEFORE` still shown. */
function expectUntouched(seen: Seen, { scrolled = false } = {}): void {
  expect(seen.title).toBe(seen.titleBefore);
  expect(seen.buffers).toEqual([]);
  // Nothing cleared the screen: the line printed before the CLI ran is still on it.
  if (!scrolled) expect(seen.lines[0]).toBe('BEFORE');
  expect(seen.lines.join('\n')).not.toContain(CLIPBOARD_PAYLOAD);
}

/** An article for ada-lovelace on the mock itself, for `read`. */
async function article(profile = 'ada-lovelace'): Promise<void> {
  await h.run(['generate', profile, '--no-wait']);
  h.server.service.advanceClock(1_300_000);
}

describe.runIf(hasTmux)('a hostile server cannot reach the terminal', () => {
  it('the harness itself: the attacks, printed raw, do set the title and write a paste buffer', async () => {
    const file = join(h.configDir, 'attacks.txt');
    writeFileSync(file, `Ada Lovelace${ALL_ESCAPES}\n`);
    const term = openTerminal(`echo BEFORE; read go; cat ${file}; echo EXIT=$?; sleep 30`, SIZE, {
      clipboard: true,
    });
    try {
      await term.waitFor('BEFORE');
      const before = term.title();
      term.keys('Enter');
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(term.title()).not.toBe(before);
      expect(term.buffers()).toContain(CLIPBOARD_PAYLOAD);
      expect(lines[0]).not.toBe('BEFORE');
    } finally {
      term.close();
    }
  });

  it('read, without the pager', async () => {
    await article();
    const seen = await inTerminal('read ada-lovelace --no-pager', undefined, { columns: 100, rows: 80 });
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=0');
    // The title line starts with the title: no \r or cursor move wrote over it.
    expect(seen.printed[0]).toMatch(/^Ada Lovelace/);
    expect(seen.lines).toContain('Sources');
    expect(seen.lines.at(-2)).toMatch(/^1 credit charged · \d+ credits left$/);
  });

  it('read --raw: the Markdown alone, by the same rule', async () => {
    await article();
    const seen = await inTerminal('read ada-lovelace --raw', undefined, { columns: 100, rows: 80 });
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=0');
    // Unrendered: the Markdown's own heading marks are there.
    expect(seen.printed[0]).toMatch(/^# Ada Lovelace/);
  });

  it('--jq: raw strings and JSON alike, by the same rule; JSON indented on a terminal', async () => {
    await article();
    const seen = await inTerminal("read ada-lovelace --jq '.article.title, {v: .article.current_version}'");
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=0');
    expect(seen.printed[0]).toMatch(/^Ada Lovelace/);
    // (The hostile title holds a line break of its own: a raw string keeps it.)
    expect(seen.lines.slice(-4, -1)).toEqual(['{', '  "v": 1', '}']);
  });

  it('api: the answer’s JSON, by the same rule', async () => {
    await article();
    const seen = await inTerminal('api GET /articles/ada-lovelace', undefined, { columns: 250, rows: 200 });
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=0');
    expect(seen.printed[0]).toBe('{');
  });

  // less shows most escapes as text by itself, but not with -r (raw), which a person may have in LESS.
  for (const less of ['', 'LESS=-r']) {
    it(`read, through the pager${less ? ` (${less})` : ''}`, async () => {
      await article();
      let page = '';
      const seen = await inTerminal(
        'read ada-lovelace',
        async (term) => {
          page = await term.waitFor(/\n:\s*$/);
          term.type('q');
        },
        { columns: 80, rows: 24 },
        less,
      );
      expectUntouched(seen, { scrolled: true });
      expect(seen.lines.at(-1)).toBe('EXIT=0');
      expect(page).not.toContain(CLIPBOARD_PAYLOAD);
      // The page as less showed it: the title on top, nothing moved. (With -r less counts the
      // colours' codes as text and lays the page out by itself; only what the codes do counts.)
      if (!less) expect(screenLines(page)[0]).toMatch(/^Ada Lovelace/);
    });
  }

  it('generate, with its spinner, and the article it makes', async () => {
    const seen = await inTerminal(
      'generate grace-hopper --no-pager',
      async (term) => {
        await term.waitFor('Generating grace-hopper: queued');
        h.server.service.advanceClock(1_300_000);
      },
      { columns: 100, rows: 80 },
    );
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=0');
    expect(seen.lines.some((line) => line.startsWith('Grace Hopper'))).toBe(true);
  });

  it('job --wait on a job that fails: the spinner names its profile, the error says why', async () => {
    const started = await h.run(['generate', 'fail-hostile', '--no-wait', '--json']);
    const jobId = JSON.parse(started.stdout).job_id as string;
    const seen = await inTerminal(`job ${jobId} --wait`, async (term) => {
      await term.waitFor(/Job for fail-hostile.*: queued/);
      h.server.service.advanceClock(1_300_000);
    });
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=3');
    expect(seen.lines.some((line) => /^ {2}job +[0-9a-f-]{36}$/.test(line))).toBe(true);
    expect(seen.lines.some((line) => line.startsWith(`Error: Job ${jobId} for "fail-hostile`))).toBe(true);
  });

  it('an error whose detail is hostile', async () => {
    const seen = await inTerminal('read nobody-here');
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=1');
    expect(seen.lines.some((line) => line.startsWith('Error: Not found (404).'))).toBe(true);
  });

  it('buy, whose checkout URL is hostile', async () => {
    const seen = await inTerminal('buy 10');
    expectUntouched(seen);
    expect(seen.lines.at(-1)).toBe('EXIT=0');
    expect(seen.lines).toContain('Pay for 10 credits for $0.50 at:');
    expect(seen.lines.some((line) => line.startsWith('  http://127.0.0.1:'))).toBe(true);
  });
});
