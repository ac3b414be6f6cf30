// A reader that stops early (`| head`) closes the pipe: the CLI must end quietly, as gh does,
// not fail with EPIPE. Spawned through bash, as a person's shell runs it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

const h = useCliMock();

function piped(command: string) {
  const env = {
    PATH: process.env.PATH,
    PROFILE_ARTICLES_API_KEY: KEYS.main,
    PROFILE_ARTICLES_BASE_URL: h.server.url,
    PROFILE_ARTICLES_CONFIG_DIR: h.configDir,
    CLI: `${process.execPath} ${BIN}`,
  };
  // PIPESTATUS[0] is the CLI's own exit code, whatever head did. Async: the mock runs in this process.
  return promisify(execFile)('bash', ['--norc', '-c', `${command}; echo "cli exit \${PIPESTATUS[0]}"`], {
    env,
  });
}

it('`… 2>&1 | head -1` exits 0 with nothing said about the closed pipe', async () => {
  await h.run(['generate', 'ada-lovelace']);
  for (let i = 0; i < 3; i++) {
    const result = await piped('$CLI read ada-lovelace --verbose 2>&1 | head -1');
    expect(result.stdout).toMatch(
      /^http GET \/api\/v1\/articles\/ada-lovelace · 200 · request req_\d+ · \d+ ms · attempt 1\ncli exit 0\n$/,
    );
    expect(result.stderr).toBe('');
  }
  const json = await piped('$CLI read ada-lovelace --json | head -1');
  expect(json.stdout).toBe('{\ncli exit 0\n');
}, 60_000); // four spawned runs: slow on a loaded machine

it('a failed command whose error meets a closed pipe keeps its own exit code', async () => {
  const result = await piped('$CLI read nobody 2>&1 | head -c 0');
  expect(result.stdout).toBe('cli exit 1\n');
  expect(result.stderr).toBe('');
});
