// --queued-ms and --running-ms on both bins, over HTTP: a job's status follows the flags'
// timings (not the defaults of 1 s and 3 s), moved by the clock control rather than waited for.
// Each check sits half a phase from the transition it looks at, so a slow machine's real time
// (the clock's base) cannot cross one between two requests.
import { MOCK_BIN_KINDS, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';

const QUEUED_MS = 10 * 60_000;
const RUNNING_MS = 20 * 60_000;
const auth = { authorization: 'Bearer demo-key' };

describe.each(MOCK_BIN_KINDS)('%s --queued-ms and --running-ms', (kind) => {
  it('give a job the timings asked for', async () => {
    const mock = startMockBin(kind, [
      '--port',
      '0',
      '--no-log',
      '--queued-ms',
      String(QUEUED_MS),
      '--running-ms',
      String(RUNNING_MS),
    ]);
    const url = await mock.url;
    const started = await fetch(`${url}/api/v1/articles`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'timing-flags-1' },
      body: JSON.stringify({ profile_id: 'ada-lovelace' }),
    });
    expect(started.status).toBe(202);
    const { job_id } = (await started.json()) as { job_id: string };
    const statusAfter = async (ms: number) => {
      const moved = await fetch(`${url}/_mock/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
      expect(moved.status).toBe(200);
      const job = await fetch(`${url}/api/v1/jobs/${job_id}`, { headers: auth });
      return ((await job.json()) as { status: string }).status;
    };
    // Past the default 1 s queue and 3 s run, well within the flags' phases.
    expect(await statusAfter(QUEUED_MS / 2)).toBe('queued');
    expect(await statusAfter(QUEUED_MS / 2 + RUNNING_MS / 2)).toBe('running');
    expect(await statusAfter(RUNNING_MS)).toBe('succeeded');
  });

  it('refuses a timing that is not a whole number of milliseconds, exit 2', async () => {
    const mock = startMockBin(kind, ['--port', '0', '--running-ms', '1.5']);
    expect(await mock.exited).toBe(2);
    expect(mock.stderr()).toContain('--running-ms must be a whole number of milliseconds');
  });
});
