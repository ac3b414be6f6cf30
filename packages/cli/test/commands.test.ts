import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { payCheckoutPage } from '@profile-articles/mock-server';
import {
  BalanceResponseSchema,
  CheckoutSessionResponseSchema,
  JobSchema,
  ReadResponseSchema,
} from '@profile-articles/sdk/schemas';
import { watchServerRequests } from '@profile-articles/test-utils/http-requests';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();

function expectOneErrorLine(stderr: string) {
  expect(stderr).toMatch(/^Error: /);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  // The message, a hint, and the request id of the answer it came from.
  const [, , third, ...more] = stderr.trim().split('\n');
  if (third !== undefined) expect(third).toMatch(/^Request id: req_\d+$/);
  expect(more).toEqual([]);
}

describe('reading and generating', () => {
  it('generate waits for the job and renders the article; --json prints the final Job', async () => {
    const human = await h.run(['generate', 'ada-lovelace']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Ada Lovelace');
    expect(human.stdout).toMatch(/Sources\n\s+\[1\]/);
    const json = await h.run(['generate', 'grace-hopper', '--json']);
    expect(json.code).toBe(0);
    const job = onlyJson(json.stdout);
    expect(JobSchema.parse(job)).toMatchObject({ status: 'succeeded', profile_id: 'grace-hopper' });
    expect(json.stderr).toBe('');
  });

  it('generate of an existing article prints the ReadResponse', async () => {
    await h.run(['generate', 'ada-lovelace']);
    const again = await h.run(['--json', 'generate', 'ada-lovelace']);
    expect(ReadResponseSchema.parse(onlyJson(again.stdout)).credits_charged).toBe(1);
  });

  it('generate --no-wait prints the started job; job --wait follows it', async () => {
    const started = await h.run(['generate', 'ada-lovelace', '--no-wait', '--json']);
    const job = JobSchema.parse(onlyJson(started.stdout));
    expect(job.status).toBe('queued');
    const shown = await h.run(['job', job.job_id, '--json']);
    expect(onlyJson(shown.stdout).job_id).toBe(job.job_id);
    const waited = await h.run(['job', job.job_id, '--wait', '--json']);
    expect(waited.code).toBe(0);
    expect(onlyJson(waited.stdout).status).toBe('succeeded');
  });

  it('reuses --idempotency-key without paying twice', async () => {
    await h.run(['generate', 'ada-lovelace', '--no-wait', '--idempotency-key', 'fixed-key']);
    const again = await h.run([
      'generate',
      'ada-lovelace',
      '--no-wait',
      '--idempotency-key',
      'fixed-key',
      '--json',
    ]);
    expect(again.code).toBe(0);
    const credits = onlyJson((await h.run(['credits', '--json'])).stdout);
    expect(credits.credits).toBe(900);
  });

  it('read renders for 80 columns on a terminal that reports 0 (a pty under `script`)', async () => {
    // An operator's trial: at width 0 the article came out one word per line.
    await h.run(['generate', 'ada-lovelace']);
    const zero = await h.run(['read', 'ada-lovelace', '--no-pager'], { terminal: true, columns: 0 });
    const eighty = await h.run(['read', 'ada-lovelace', '--no-pager'], { terminal: true, columns: 80 });
    expect(zero.code).toBe(0);
    expect(zero.stdout).toBe(eighty.stdout);
  });

  it('read renders the article and the charge; --json prints the ReadResponse', async () => {
    await h.run(['generate', 'ada-lovelace']);
    const human = await h.run(['read', 'ada-lovelace']);
    expect(human.stderr).toMatch(/^1 credit charged · \d+ credits left$/m);
    expect(human.stdout).toMatch(/occupation\s+\S/);
    const json = await h.run(['read', 'ada-lovelace', '--json']);
    expect(ReadResponseSchema.parse(onlyJson(json.stdout)).article.title).toBe('Ada Lovelace');
  });

  it('update waits and prints the new version', async () => {
    await h.run(['generate', 'ada-lovelace']);
    const updated = await h.run(['update', 'ada-lovelace', '--json']);
    expect(updated.code).toBe(0);
    expect(onlyJson(updated.stdout).article.current_version).toBe(2);
  });

  it('credits shows the balance and terms; --json the BalanceResponse', async () => {
    const human = await h.run(['credits']);
    expect(human.stdout).toMatch(/1000 credits/);
    expect(human.stdout).toMatch(/purchase range\s+10 to 100000 credits/);
    expect(human.stdout).toMatch(/rate limit\s+120 requests per minute/);
    expect(BalanceResponseSchema.parse(onlyJson((await h.run(['credits', '--json'])).stdout)).credits).toBe(
      1000,
    );
  });

  it('buy prints the payment page; --wait returns once it is paid', async () => {
    const json = await h.run(['buy', '100', '--json']);
    const session = CheckoutSessionResponseSchema.parse(onlyJson(json.stdout));
    expect(session.url).toContain(h.server.url);
    expect(onlyJson((await h.run(['credits', '--json'])).stdout).credits).toBe(1000);
    // --wait: pay on the page, as a person would, while the CLI watches the balance.
    let paid = false;
    const waited = await h.run(['buy', '200', '--wait'], {
      onOutput: (stdout) => {
        const page = /(http:\S+\/checkout\/cs_test_\w+)/.exec(stdout)?.[1];
        if (page && !paid) {
          paid = true;
          void payCheckoutPage(page);
        }
      },
    });
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/Pay for 200 credits for \$10\.00/);
    expect(waited.stderr).toMatch(/Payment received: your balance is 1200 credits/);
  });
});

// Spawned: the browser launcher reads BROWSER from the process environment, which the
// in-process run cannot set without changing it for every test running alongside.
describe('buy --open', () => {
  it('hands the payment page to the browser', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pa-browser-'));
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${dir}/opened.txt\n`, { mode: 0o755 });
    const result = await h.cli(['buy', '100', '--open'], { env: { BROWSER: browser } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Opened the payment page');
    const url = /http:\S+\/checkout\/cs_test_\w+/.exec(result.stdout)![0];
    expect(readFileSync(join(dir, 'opened.txt'), 'utf8').trim()).toBe(url);
  });

  it('falls back to printing the address when no browser can be opened', async () => {
    const result = await h.cli(['buy', '100', '--open'], { env: { BROWSER: 'false' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/http:\S+\/checkout\/cs_test_\w+/);
    expect(result.stderr).toContain('Could not open a browser');
  });
});

describe('exit codes and messages', () => {
  it('3 when a job ends failed, after printing the failed Job', async () => {
    const result = await h.run(['generate', 'fail-someone', '--json']);
    expect(result.code).toBe(3);
    expect(onlyJson(result.stdout)).toMatchObject({ status: 'failed', credits_charged: 0 });
    const { error } = JSON.parse(result.stderr.trim().split('\n').at(-1)!);
    expect(error.message).toMatch(/ended failed: Research run/);
    expect(error.hint).toMatch(/refunded/);
    const human = await h.run(['generate', 'fail-other']);
    expect(human.code).toBe(3);
    expectOneErrorLine(human.stderr.slice(human.stderr.indexOf('Error: ')));
    // The job's error is told once, by the error line.
    expect(`${human.stdout}${human.stderr}`.match(/failed \(test profile\)/g)).toHaveLength(1);
  });

  it('4 for a refused key, with a hint on how to set one', async () => {
    const result = await h.run(['credits'], { env: { PROFILE_ARTICLES_API_KEY: 'pa_test_WRONGKEY_000000' } });
    expect(result.code).toBe(4);
    expectOneErrorLine(result.stderr);
    expect(result.stderr).toMatch(/login|PROFILE_ARTICLES_API_KEY/);
  });

  it('4 when no key is set anywhere', async () => {
    const result = await h.run(['credits'], { env: { PROFILE_ARTICLES_API_KEY: undefined } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/login/);
  });

  it('5 for insufficient credits, showing the balance and how to buy', async () => {
    const result = await h.run(['generate', 'ada-lovelace'], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
    });
    expect(result.code).toBe(5);
    expectOneErrorLine(result.stderr);
    expect(result.stderr).toMatch(/balance is 50 credits/);
    expect(result.stderr).toContain('profile-articles buy');
  });

  it('2 for invalid usage: unknown command, missing argument, bad numbers, out-of-range purchase', async () => {
    for (const args of [
      ['frobnicate'],
      ['read'],
      ['buy', 'lots'],
      ['buy', '5'],
      ['generate', 'x', '--timeout', '-1'],
      ['--poll-interval', 'soon', 'credits'],
      ['mock', '--port', '99999'],
    ]) {
      const result = await h.run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^Error: /);
      expect(result.stdout).toBe('');
    }
  });

  it('1 with a hint for a 409 conflict', async () => {
    await h.run(['generate', 'stuck-someone', '--no-wait']);
    const result = await h.run(['generate', 'stuck-someone']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/409/);
    expect(result.stderr).toMatch(/try again/i);
  });

  it('1 for a 404 with a hint', async () => {
    const result = await h.run(['read', 'nobody']);
    expect(result.code).toBe(1);
    expectOneErrorLine(result.stderr);
  });

  it('1 for a rate limit, saying when to come back', async () => {
    const env = { PROFILE_ARTICLES_API_KEY: KEYS.limited };
    await h.run(['credits'], { env });
    await h.run(['credits'], { env });
    const result = await h.run(['credits'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/429/);
    expect(result.stderr).toMatch(/Come back in \d+ s/);
  });

  it('1 when --timeout runs out, naming the job and how to resume', async () => {
    const result = await h.run(['generate', 'stuck-someone', '--timeout', '0.3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/profile-articles job [0-9a-f-]{36} --wait/);
  });

  // Spawned: a real SIGINT to a real process.
  it('130 on Ctrl-C while waiting; the job goes on', async () => {
    // Ctrl-C once the CLI is waiting, which its first poll of the job proves (it listens for
    // SIGINT before it polls), whichever of that poll and its "started" line the test hears first.
    let child: ChildProcess | undefined;
    let polled = false;
    const interrupt = () => {
      if (child && polled) child.kill('SIGINT');
    };
    // Only a poll of this test's own job counts: a CLI left by an earlier test on the same
    // server may still be polling its job, which once made this one interrupt too early.
    const ownJob = () => h.server.service.state().jobs.activeFor('stuck-someone')?.job.job_id;
    const stop = watchServerRequests(h.server.port, ({ request }) => {
      const id = ownJob();
      if (!polled && id !== undefined && request.url === `/api/v1/jobs/${id}`) {
        polled = true;
        interrupt();
      }
    });
    const result = await h
      .cli(['generate', 'stuck-someone'], {
        onOutput: {
          match: /started/,
          run: (started) => {
            child = started;
            interrupt();
          },
        },
      })
      .finally(stop);
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/keeps running/);
    expect(result.stderr).toMatch(/profile-articles job [0-9a-f-]{36} --wait/);
    expect(h.server.service.state().jobs.activeFor('stuck-someone')?.job.status).toBe('queued');
  });
});

afterAll(() => {
  // Not one byte of any key in anything the CLI printed in this file.
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
  expect(all).not.toContain('WRONGKEY');
});
