// batch as a person sees it in a terminal (tmux): the list piped in on stdin, the confirmation
// answered on the keyboard, then one live progress line.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasTmux, openTerminal } from '@profile-articles/test-utils/tmux';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchMock, startBatchMock, workDir } from './batch-helpers.js';
import { BIN } from './helpers.js';

const KEY = 'pa_test_TTYKEY_01234567890';
let mock: BatchMock;

beforeAll(async () => {
  mock = await startBatchMock({
    accounts: [{ id: 'tty', apiKeys: [KEY], credits: 10_000 }],
    jobs: { queuedMs: 500, runningMs: 1500 },
  });
});
afterAll(() => mock.server.close());

describe('batch on a terminal', () => {
  it.runIf(hasTmux)(
    'asks on the terminal though the list comes from stdin, then shows one progress line',
    async () => {
      const dir = workDir(['tty-a', 'tty-b', 'tty-c']);
      const script = join(dir, 'run.sh');
      const env = `PROFILE_ARTICLES_API_KEY=${KEY} PROFILE_ARTICLES_BASE_URL=${mock.server.url} PROFILE_ARTICLES_POLL_INTERVAL=0.2 PROFILE_ARTICLES_CONFIG_DIR=${join(dir, 'config')}`;
      writeFileSync(
        script,
        `cd ${dir}\ncat list.txt | env -u CI ${env} ${process.execPath} ${BIN} batch generate --from - --state s.jsonl\necho EXIT=$?\nsleep 30\n`,
      );
      const terminal = openTerminal(`sh ${script}`, { columns: 150, rows: 30 });
      try {
        const asked = await terminal.waitFor(/Start\? \[y\/N\]/);
        expect(asked).toMatch(/3 profiles \(3 new.*Worst case 300 credits \(3 × 100\); balance 10000/s);
        terminal.keys('y', 'Enter');
        const last = await terminal.waitFor(/EXIT=/);
        expect(last).toContain('EXIT=0');
        expect(last).toMatch(/generate: 3 succeeded, 0 failed, 0 skipped, 0 left; 300 credits charged/);
      } finally {
        terminal.close();
      }
      const screens = terminal.seen;
      const progress = screens.filter((s) =>
        /done \d+ · running \d+ · failed 0 · left \d+ · \d+ credits · [\d.]+\/min/.test(s),
      );
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.some((s) => /running [1-3]/.test(s))).toBe(true);
    },
    30_000,
  );

  it.runIf(hasTmux)(
    'answering n prints "Not started." (no "Error:"), exits 1 and leaves no state file',
    async () => {
      const dir = workDir(['tty-n']);
      const script = join(dir, 'run.sh');
      const env = `PROFILE_ARTICLES_API_KEY=${KEY} PROFILE_ARTICLES_BASE_URL=${mock.server.url} PROFILE_ARTICLES_CONFIG_DIR=${join(dir, 'config')}`;
      writeFileSync(
        script,
        `cd ${dir}\nenv -u CI ${env} ${process.execPath} ${BIN} batch generate --from list.txt --state s.jsonl\necho EXIT=$?\nsleep 30\n`,
      );
      const terminal = openTerminal(`sh ${script}`, { columns: 150, rows: 30 });
      try {
        await terminal.waitFor(/Start\? \[y\/N\]/);
        terminal.keys('n', 'Enter');
        const last = await terminal.waitFor(/EXIT=/);
        expect(last).toContain('EXIT=1');
        expect(last).toMatch(/^Not started\.$/m);
        expect(last).not.toContain('Error');
      } finally {
        terminal.close();
      }
      expect(existsSync(join(dir, 's.jsonl'))).toBe(false);
    },
    30_000,
  );
});
