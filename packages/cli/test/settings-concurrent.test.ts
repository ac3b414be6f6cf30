// The settings file written by several runs at once: each `config set` (and login, logout,
// `config unset`) changes the file as it is when it writes, under a lock, so no run's setting is
// lost and none says "Set" for a write that did not happen. Spawned bins: the race is between
// processes.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const RUNS = 8;

describe('the settings file under concurrent writes', () => {
  it(`${RUNS} concurrent config set runs each keep their setting, round after round`, {
    timeout: 120_000,
  }, async () => {
    for (let round = 0; round < 3; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'cli-settings-race-'));
      const env = { PROFILE_ARTICLES_CONFIG_DIR: dir };
      const runs = await Promise.all(
        Array.from({ length: RUNS }, (_, i) =>
          runCli(['config', 'set', 'base-url', `http://127.0.0.1:${4000 + i}`, '--profile', `p${i}`], {
            env,
          }),
        ),
      );
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles;
      expect(Object.keys(stored).sort()).toEqual(Array.from({ length: RUNS }, (_, i) => `p${i}`).sort());
      expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    }
  });

  it('a run that cannot take the lock says nothing was written (exit 1) and leaves the file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-settings-held-'));
    const env = { PROFILE_ARTICLES_CONFIG_DIR: dir };
    expect((await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4000'], { env })).code).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    // Another run holds the lock (a fresh one: not left by a crash).
    writeFileSync(join(dir, 'config.json.lock'), '999999\n');
    const set = await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4001'], { env });
    expect(set.code).toBe(1);
    expect(set.stdout).not.toContain('Set');
    expect(set.stderr).toContain('nothing was written');
    expect(set.stderr).toContain(join(dir, 'config.json.lock'));
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });
});
