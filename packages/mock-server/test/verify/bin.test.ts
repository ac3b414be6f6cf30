// The built bin, spawned: `profile-articles-mock verify` exit codes and output as a user
// meets them. The rest of verify is tested in-process (verify.test.ts, drift.test.ts).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KEY, startMock } from './harness.js';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

function verify(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // Only what verify reads: no key or origin leaks in from the machine running the tests.
    const childEnv = { PATH: process.env.PATH ?? '', ...env };
    execFile(process.execPath, [BIN, 'verify', ...args], { env: childEnv }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('profile-articles-mock verify (spawned)', () => {
  it('passes the free checks against the mock with exit 0, a table and never the key', async () => {
    const server = await startMock();
    const run = await verify([], { PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: server.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^PASS {10}GET \/api\/v1\/jobs\/\{job_id\} +404 for a job that does not exist$/m,
    );
    expect(run.stdout).toContain('0 failed');
    expect(run.stdout).toContain('Credits spent: 0 (limit --spend 0)');
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it("is listed in the mock's --help, and verify --help prints its own usage", async () => {
    const mockHelp = await new Promise<string>((resolve) =>
      execFile(process.execPath, [BIN, '--help'], (_error, stdout) => resolve(stdout)),
    );
    expect(mockHelp).toContain('profile-articles-mock verify');
    const run = await verify(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--spend CREDITS');
    expect(run.stdout).toContain('PROFILE_ARTICLES_API_KEY');
  });

  it('exits 2 without a key, naming the variable', async () => {
    const run = await verify(['--base-url', 'http://127.0.0.1:9'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PROFILE_ARTICLES_API_KEY');
  });

  it('exits 2 for an origin without its scheme, suggesting the URL', async () => {
    for (const typed of ['127.0.0.1:4010', 'localhost:4010']) {
      const run = await verify(['--base-url', typed], { PROFILE_ARTICLES_API_KEY: KEY });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--base-url has no scheme: "${typed}" (did you mean "http://${typed}"?)`);
    }
  });

  it('exits 2 for a --spend that is not a whole number', async () => {
    const run = await verify(['--spend', 'lots'], {
      PROFILE_ARTICLES_API_KEY: KEY,
      PROFILE_ARTICLES_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--spend');
  });

  it('exits 2 for an empty --profile', async () => {
    const run = await verify(['--profile', ''], {
      PROFILE_ARTICLES_API_KEY: KEY,
      PROFILE_ARTICLES_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--profile needs a profile slug');
  });

  it('exits 4 when the key is refused', async () => {
    const server = await startMock();
    const run = await verify(['--api-key', 'not-a-key-of-this-mock', '--base-url', server.url], {});
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('refused the API key');
    // The key came from the flag: the message names the flag, not a variable that was never set.
    expect(run.stderr).toContain('--api-key');
    expect(run.stderr).not.toContain('PROFILE_ARTICLES_API_KEY');
    expect(run.stderr).not.toContain('not-a-key-of-this-mock');
  });

  it('exits 1 and says so plainly when the origin cannot be reached', async () => {
    const server = await startMock();
    const url = server.url;
    await server.close();
    const run = await verify([], { PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: url });
    expect(run.code).toBe(1);
    // The system's reason, not fetch's "fetch failed" (a newcomer's trial saw only that).
    expect(run.stderr).toContain(`Stopped: cannot reach ${url} (ECONNREFUSED)`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('names fetch’s own reason for a port it never calls, not "fetch failed"', async () => {
    const run = await verify([], {
      PROFILE_ARTICLES_API_KEY: KEY,
      PROFILE_ARTICLES_BASE_URL: 'http://127.0.0.1:1',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Stopped: cannot reach http://127.0.0.1:1 (bad port)');
  });
});
