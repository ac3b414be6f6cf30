// verify sends the API key with every probe: to another machine over plain http it travels
// unencrypted, and verify said nothing of it (an attacker's finding), where the CLI and the SDK warn.
import { describe, expect, it } from 'vitest';
import { runVerifyCommand } from '../../src/verify/command.js';
import { KEY, startMock } from './harness.js';

/** Runs verify against `origin`, with its requests sent on to the real mock at `server`. */
async function verifyAt(origin: string, serverUrl: string, args: string[] = []) {
  let stdout = '';
  let stderr = '';
  const code = await runVerifyCommand(
    args,
    { PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: origin },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    {
      fetch: (input, init) =>
        fetch(String(input instanceof Request ? input.url : input).replace(origin, serverUrl), init),
    },
  );
  return { code, stdout, stderr };
}

describe('verify over plain http', () => {
  it('warns on stderr, once, when the origin is another machine, and keeps --json clean', async () => {
    const server = await startMock();
    try {
      const origin = 'http://mock.example.test';
      const run = await verifyAt(origin, server.url, ['--json']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ checks: expect.any(Array) });
      const warnings = run.stderr.split('\n').filter((line) => line.includes('plain http'));
      expect(warnings).toEqual([
        `Warning: ${origin} is plain http to another machine: your API key travels unencrypted. Use https.`,
      ]);
      expect(run.stderr).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });

  it('says nothing of it for a loopback origin', async () => {
    const server = await startMock();
    try {
      const run = await verifyAt(server.url, server.url);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
    } finally {
      await server.close();
    }
  });
});
