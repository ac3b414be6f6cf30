// A paid verify run waits for a job for as long as the service takes; it used to show nothing
// meanwhile (an attacker's trial read it as hung). On a terminal one status line says which step
// is under way, and is erased before the report; in a pipe there is none.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { describe, expect, it } from 'vitest';
import { KEY, startMock } from './harness.js';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
// The harness's mock holds a job queued 1 s and running 4 s of real time: the generate step
// lasts that long, long enough for the screen to be read while it waits.
const PAID = ['--spend', '300', '--generate-profile', 'grace-hopper'];

describe.runIf(hasTmux)('verify on a terminal', () => {
  it('shows the step under way while a paid check waits, and erases it before the report', async () => {
    const server = await startMock();
    const env = `env -i PATH="$PATH" PROFILE_ARTICLES_API_KEY=${KEY} PROFILE_ARTICLES_BASE_URL=${server.url}`;
    const term = openTerminal(
      `${env} ${process.execPath} ${BIN} verify ${PAID.join(' ')}; echo EXIT=$?; sleep 30`,
      {
        columns: 200,
        rows: 60,
      },
    );
    try {
      const waiting = await term.waitFor(/Checking generate \(step 6 of 7\)…/);
      expect(screenLines(waiting).filter((line) => line.startsWith('Checking'))).toHaveLength(1);
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(lines.at(-1)).toBe('EXIT=0');
      expect(lines.join('\n')).not.toContain('Checking');
      expect(lines).toContainEqual(expect.stringMatching(/^PASS +POST \/api\/v1\/articles/));
    } finally {
      term.close();
    }
  }, 120_000);
});

describe('verify in a pipe', () => {
  it('writes no status line', async () => {
    const server = await startMock();
    const run = await new Promise<{ code: number; stderr: string; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        [BIN, 'verify'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            PROFILE_ARTICLES_API_KEY: KEY,
            PROFILE_ARTICLES_BASE_URL: server.url,
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('Checking');
  });
});
