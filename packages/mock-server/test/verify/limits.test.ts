// verify's own limits hold whatever the server does: an endless body is not read past the
// cap, a trickled one ends at the probe's time limit, a job that never ends is polled no
// longer than verify's own limit, and a Retry-After above the cap is never waited.
import {
  advertise,
  countRequests,
  drifts,
  neverFinish,
  retryAfter,
} from '@profile-articles/test-utils/lying-mock';
import { huge, reply, reset, scriptedServer, trickle } from '@profile-articles/test-utils/scripted-server';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTable } from '../../src/verify/report.js';
import { checkOf, clockWait, KEY, startMock, verifyJson, verifyOrigin } from './harness.js';

const MiB = 1024 * 1024;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function scripted(...steps: Parameters<typeof scriptedServer>[0]) {
  const server = await scriptedServer(steps);
  closers.push(server.close);
  return server;
}

describe('verify keeps its limits against a hostile server', () => {
  it('stops reading an endless body at 10 MiB and fails that check', async () => {
    const sent = { bytes: 0 };
    const server = await scripted(huge(sent, { totalBytes: 64 * MiB }), reset);
    const run = await verifyOrigin(server.url, [], { wait: async () => {} });
    expect(checkOf(run.report, 'credits.balance')).toMatchObject({
      status: 'failed',
      got: '200 with a body over 10 MiB (not read)',
    });
    // What the kernel's buffers took beyond the cap, not the whole body.
    expect(sent.bytes).toBeLessThan(32 * MiB);
    expect(run.code).toBe(1);
  });

  it('never follows a redirect: the key goes nowhere but the origin, and the 3xx fails its check', async () => {
    const elsewhere = await scripted(reply(200, { credits: 1000, pricing: {} }));
    const server = await scripted(
      reply(307, { detail: 'moved' }, { location: `${elsewhere.url}/api/v1/credits` }),
      reset,
    );
    const run = await verifyOrigin(server.url, [], { wait: async () => {} });
    expect(elsewhere.received).toEqual([]);
    expect(checkOf(run.report, 'credits.balance')).toMatchObject({
      status: 'failed',
      expected: 'status 200',
    });
    expect(checkOf(run.report, 'credits.balance').got).toMatch(/^307 /);
  });

  it('ends a probe whose body trickles at the time limit, which covers the body', async () => {
    let expire: (() => void) | undefined;
    // The limit is made to run out once the body has started, not by the clock.
    const server = await scripted(
      trickle(20, (bytes) => {
        if (bytes >= 3) expire?.();
      }),
    );
    const run = await verifyOrigin(server.url, [], {
      wait: async () => {},
      timer: (_ms, onExpire) => {
        expire = onExpire;
        return () => (expire = undefined);
      },
    });
    expect(run.report.unreachable).toBe('no complete answer to GET /api/v1/credits within 60 s');
    expect(run.stderr).toContain('no complete answer to GET /api/v1/credits within 60 s');
    expect(run.code).toBe(1);
  });

  it('polls a job that never ends for 45 minutes at most, whatever queued_timeout_minutes says', async () => {
    const server = await startMock(drifts(advertise({ queued_timeout_minutes: 1e9 }), neverFinish()));
    let waited = 0;
    const wait = clockWait(server);
    const run = await verifyJson(server, ['--spend', '100', '--generate-profile', 'grace-hopper'], {
      deps: {
        wait: (ms) => {
          waited += ms;
          return wait(ms);
        },
      },
      // A poll a minute: 45 polls to the limit rather than 270.
      env: { PROFILE_ARTICLES_POLL_INTERVAL: '60' },
    });
    expect(checkOf(run.report, 'generate.poll')).toMatchObject({
      status: 'failed',
      expected: 'a terminal state within 45 minutes',
      got: 'still queued',
    });
    expect(waited).toBeLessThanOrEqual(45 * 60_000);
  });

  it('never waits a Retry-After above 60 s: the 429 is reported at once', async () => {
    const server = await startMock(retryAfter('99999999'), {
      accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { requests_per_minute: 3 } }],
    });
    const waits: number[] = [];
    const run = await verifyJson(server, ['--check-rate-limit'], {
      deps: { wait: async (ms) => void waits.push(ms) },
    });
    expect(waits.filter((ms) => ms > 60_000)).toEqual([]);
    const met = run.report.checks.filter((check) => check.id === 'rate-limit.met');
    expect(met.length).toBeGreaterThan(0);
    for (const check of [...met, checkOf(run.report, 'rate-limit.retry-after')]) {
      expect(check).toMatchObject({
        status: 'failed',
        expected: 'a Retry-After of whole seconds, at most 60',
        got: 'Retry-After: 99999999 (not waited)',
      });
    }
    expect(checkOf(run.report, 'rate-limit.recovery').status).toBe('skipped');
    expect(run.code).toBe(1);
  });

  it('sends at most 600 calls to provoke the 429, whatever requests_per_minute the server advertises', async () => {
    const balance = { count: 0 };
    // The mock really refuses after 700 a minute (so that the run ends before the fix); it
    // advertises the largest safe integer.
    const server = await startMock(
      drifts(
        advertise({ requests_per_minute: Number.MAX_SAFE_INTEGER }),
        countRequests('getBalance', balance),
      ),
      { accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { requests_per_minute: 700 } }] },
    );
    const run = await verifyJson(server, ['--check-rate-limit']);
    expect(balance.count).toBeLessThanOrEqual(600);
    expect(checkOf(run.report, 'rate-limit.429')).toMatchObject({
      status: 'inconclusive',
      reason: `not provoked: requests_per_minute ${Number.MAX_SAFE_INTEGER} needs more calls than verify's cap of 600`,
    });
    expect(run.code).toBe(0);
  });

  it('still provokes the 429 of a server that advertises a window within the cap', async () => {
    const balance = { count: 0 };
    const server = await startMock(countRequests('getBalance', balance), {
      accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { requests_per_minute: 595 } }],
    });
    const run = await verifyJson(server, ['--check-rate-limit']);
    expect(checkOf(run.report, 'rate-limit.429').status).toBe('passed');
    expect(checkOf(run.report, 'rate-limit.recovery').status).toBe('passed');
    expect(balance.count).toBeLessThanOrEqual(600);
  });

  it('ends a run at its overall budget: the rest is not run, a row says why, the report is printed, exit 1', async () => {
    // Every request past the third in a minute is refused with Retry-After: 60, so each one
    // waits three minutes: hours for a run. The budget runs out at the first wait, not by the clock.
    const server = await startMock(retryAfter('60'), {
      accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { requests_per_minute: 3 } }],
    });
    let expire: (() => void) | undefined;
    const waits: number[] = [];
    const wait = clockWait(server);
    const run = await verifyJson(server, [], {
      deps: {
        runTimer: (ms, onExpire) => {
          expect(ms).toBe(15 * 60_000);
          expire = onExpire;
          return () => (expire = undefined);
        },
        wait: async (ms) => {
          waits.push(ms);
          expire?.();
          await wait(ms);
        },
      },
    });
    expect(run.report.out_of_time).toBe("verify's run budget of 15 minutes ran out");
    const stopped = run.report.checks.filter((check) => check.id.startsWith('run.'));
    expect(stopped[0]).toMatchObject({
      status: 'inconclusive',
      reason: "cut short: verify's run budget of 15 minutes ran out",
    });
    expect(stopped.length).toBeGreaterThan(1);
    for (const check of stopped.slice(1)) {
      expect(check).toMatchObject({
        status: 'skipped',
        reason: "not run: verify's run budget of 15 minutes ran out",
      });
    }
    // No request and no wait after the budget ran out.
    expect(waits).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(formatTable(run.report)).toContain("Stopped: verify's run budget of 15 minutes ran out");
  });
});
