// The CLI as a person meets it, in a real terminal (tmux): Ctrl-C with the key stored by login,
// Ctrl-C at the login prompt, the spinner with an empty CI, a hidden prompt for config set
// api-key; and a busy port for `mock`, which needs no terminal.

import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, runCli, useCliMock } from './helpers.js';

const h = useCliMock();
const node = `${process.execPath} ${BIN}`;
/** The environment a person has after `login`: nothing but the config folder. */
const bareEnv = () =>
  `env -u CI -u PROFILE_ARTICLES_API_KEY -u PROFILE_ARTICLES_BASE_URL PROFILE_ARTICLES_CONFIG_DIR=${h.configDir}`;
const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe.runIf(hasTmux)('in a terminal', () => {
  it('Ctrl-C while generate waits, with the key stored by login, prints the resume hint and exits 130', async () => {
    const login = await h.cli(['login', '--base-url', h.server.url], {
      input: `${KEYS.main}\n`,
      env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined },
    });
    expect(login.code).toBe(0);
    const term = openTerminal(
      `${bareEnv()} PROFILE_ARTICLES_POLL_INTERVAL=0.2 ${node} generate stuck-someone; echo EXIT=$?; sleep 30`,
    );
    try {
      await term.waitFor(/Generating stuck-someone: queued/);
      term.keys('C-c');
      const screen = await term.waitFor('EXIT=');
      const lines = screenLines(screen);
      expect(lines).toContainEqual(
        expect.stringMatching(/^Stopped waiting: job [0-9a-f-]{36} keeps running on the server\.$/),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(/^Resume with: profile-articles job [0-9a-f-]{36} --wait$/),
      );
      expect(lines.at(-1)).toBe('EXIT=130');
      expect(h.server.service.state().jobs.activeFor('stuck-someone')?.job.status).toBe('queued');
    } finally {
      term.close();
    }
  });

  it('Ctrl-C at the login prompt exits 130 quietly', async () => {
    const term = openTerminal(
      `${bareEnv()} ${node} login --base-url ${h.server.url}; echo EXIT=$?; sleep 30`,
    );
    try {
      await term.waitFor('API key:');
      term.type('pa_half');
      term.keys('C-c');
      const screen = await term.waitFor('EXIT=');
      expect(screenLines(screen)).toEqual(['API key:', 'EXIT=130']);
    } finally {
      term.close();
    }
  });

  it('shows a spinner when CI is set but empty', async () => {
    const term = openTerminal(
      `env CI= PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_POLL_INTERVAL=0.2 PROFILE_ARTICLES_CONFIG_DIR=${h.configDir} ${node} generate stuck-spinner --timeout 4; echo EXIT=$?; sleep 30`,
    );
    try {
      const screen = await term.waitFor('EXIT=');
      expect(screen).toContain('EXIT=1');
      expect(
        term.seen.some(
          (s) => SPINNER_FRAMES.test(s) && /Generating stuck-spinner: queued · \d+ s · /.test(s),
        ),
      ).toBe(true);
    } finally {
      term.close();
    }
  });

  it('on a terminal an article is rendered from its Markdown', async () => {
    await h.run(['generate', 'ada-lovelace']);
    const env = `env -u CI PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_CONFIG_DIR=${h.configDir}`;
    const term = openTerminal(`${env} ${node} read ada-lovelace --no-pager; echo EXIT=$?; sleep 30`, {
      columns: 100,
      rows: 50,
    });
    try {
      const screen = screenLines(await term.waitFor('EXIT='));
      expect(screen).toContain('Career');
      expect(screen.join('\n')).not.toMatch(/## Career|\*\*Ada/);
      expect(screen.at(-1)).toBe('EXIT=0');
    } finally {
      term.close();
    }
  });

  it('config set api-key without a value asks with a hidden prompt', async () => {
    const term = openTerminal(`${bareEnv()} ${node} config set api-key; echo EXIT=$?; sleep 30`);
    try {
      await term.waitFor('API key:');
      term.type(KEYS.main);
      term.keys('Enter');
      const screen = await term.waitFor('EXIT=');
      expect(screenLines(screen)).toEqual(['API key:', 'Set api-key to pa_t…89.', 'EXIT=0']);
      expect(screen).not.toContain(KEYS.main);
    } finally {
      term.close();
    }
  });
});

describe('profile-articles mock', () => {
  it('prints the URL, the demo key and the next commands; its / says what it is', async () => {
    let answer: { docs?: string } | undefined;
    const result = await runCli(['mock', '--port', '0'], {
      onOutput: {
        match: /listening on (\S+)[\s\S]*Stop it with Ctrl-C/,
        run: (child, match) => {
          void fetch(`${match[1]}/`)
            .then((r) => r.json())
            .then((body) => {
              answer = body;
              child.kill('SIGINT');
            });
        },
      },
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^Profile Article Service mock listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = /listening on (\S+)/.exec(lines[0]!)![1];
    expect(lines[1]).toBe(`Dashboard: ${url}/_mock/`);
    expect(lines[2]).toBe('Demo account: API key demo-key, 1000 credits');
    // The mock's key goes in a profile of its own: the default profile is left alone, and a
    // stored key goes only to its own origin (key-origin.test.ts).
    expect(lines.slice(3, 9)).toEqual([
      '',
      'Next, in another terminal:',
      `  echo demo-key | profile-articles login --profile mock --base-url ${url}`,
      '  profile-articles generate ada-lovelace --profile mock',
      '  profile-articles status --profile mock',
      `Or, for one shell and no stored key: export PROFILE_ARTICLES_BASE_URL=${url} PROFILE_ARTICLES_API_KEY=demo-key`,
    ]);
    expect(answer).toMatchObject({ service: 'Profile Article Service mock server', api: '/api/v1' });
    // Where its documentation is, reachable by whoever installed it from npm (issue 26).
    expect(answer?.docs).toContain('profile-articles help mock');
    expect(answer?.docs).not.toContain('repository');
  });

  it('says the port is taken and how to pick another, exit 1', async () => {
    const port = new URL(h.server.url).port;
    const result = await h.cli(['mock', '--port', port]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: Port ${port} is already in use: another mock (or another program) is listening there.\nPick another with --port, such as --port 4011, or --port 0 for any free port.\n`,
    );
  });
});
