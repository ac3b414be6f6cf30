// A mock called by a host name it does not answer to (DNS rebinding protection: 421) refused
// each of verify's probes alike: twenty failed rows, each repeating the mock's hint, where
// one line was needed (a newcomer's trial). The first answer now stops the run with it.
import { describe, expect, it } from 'vitest';
import { runVerifyCommand } from '../../src/verify/command.js';
import { KEY, startMock } from './harness.js';

describe('verify against a server that does not answer to the host it was called by', () => {
  it('stops at the first 421 with the server’s own words, exit 1', async () => {
    const server = await startMock();
    const origin = 'http://vm.internal:4010';
    let stdout = '';
    let stderr = '';
    let calls = 0;
    const code = await runVerifyCommand(
      ['--spend', '1000'],
      { PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: origin },
      { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
      {
        // The mock's own rules judge the Host, as its HTTP server would on 127.0.0.1: vm.internal is not one of its hosts.
        fetch: (input, init) => {
          calls++;
          return server.service.handle(new Request(String(input), init), { listenHost: '127.0.0.1' });
        },
      },
    );
    expect(code).toBe(1);
    expect(calls).toBe(1);
    expect(stdout).toContain(
      'Stopped: http://vm.internal:4010 answered 421 Misdirected Request: This mock does not answer to the host',
    );
    expect(stdout).toContain('--allow-host');
    expect(stdout).not.toContain('failed  ');
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(2); // the plain-http warning and the stop
    expect(`${stdout}${stderr}`).not.toContain(KEY);
  });

  it('shows a hostile 421 detail without the key or a control character', async () => {
    let stdout = '';
    let stderr = '';
    const detail = `wrong host for Bearer ${KEY}\u001b]2;pwned\u0007\r\u001b[2Jdone`;
    const code = await runVerifyCommand(
      ['--json'],
      { PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: 'http://127.0.0.1:4010' },
      { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
      { fetch: async () => Response.json({ detail }, { status: 421 }) },
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout).unreachable).toMatch(
      /^http:\/\/127\.0\.0\.1:4010 answered 421 Misdirected Request: wrong host for Bearer \[redacted\]/,
    );
    expect(`${stdout}${stderr}`).not.toContain(KEY);
    expect(stderr).toMatch(/^Stopped: .*done\n$/);
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });
});
