// verify against our own mock: every check passes, free and paid, and --spend is a hard limit.
import { describe, expect, it } from 'vitest';
import { runVerifyCommand } from '../../src/verify/command.js';
import { type CheckStatus, formatTable } from '../../src/verify/report.js';
import { failedChecks, KEY, seedArticle, startMock, verifyJson } from './harness.js';

const ALL_PAID = ['--spend', '1000', '--profile', 'ada-lovelace', '--generate-profile', 'grace-hopper'];

describe('verify against the mock', () => {
  it('passes every check, free and paid, the rate limit included, and spends what the balance shows', async () => {
    const server = await startMock();
    await seedArticle(server, 'ada-lovelace');
    const before = server.service.balance('acme');
    const run = await verifyJson(server, [...ALL_PAID, '--check-rate-limit']);
    expect(failedChecks(run.report)).toEqual([]);
    expect(run.report.summary.skipped).toBe(0);
    expect(run.report.summary.inconclusive).toBe(0);
    expect(run.code).toBe(0);
    const ids = run.report.checks.map((check) => check.id);
    for (const id of [
      'credits.balance',
      'credits.pricing.max_purchase_credits',
      'auth.generateArticle.no-key',
      'auth.getJob.made-up-key',
      'jobs.non-uuid-422',
      'jobs.missing-404',
      'articles.long-profile-id-422',
      'update.no-article-404',
      'checkout.wrong-type-422',
      'checkout.above-range-400',
      'checkout.in-range',
      'generate.no-idempotency-key-422',
      'generate.extra-property-422',
      'read.existing.credits-charged',
      'read.existing.balance',
      'read.missing-404',
      'read.missing.balance',
      'generate.credits-charged',
      'generate.poll',
      'generate.result',
      'generate.replay.same-job',
      'generate.replay.balance',
      'generate.key-reuse-409',
      'update.credits-charged',
      'update.poll',
      'rate-limit.429',
      'rate-limit.retry-after',
      'rate-limit.recovery',
    ]) {
      expect(ids).toContain(id);
    }
    // A read (1), a generation (100) and an update (100).
    expect(run.report.credits_spent).toBe(201);
    expect(before - server.service.balance('acme')).toBe(201);
    expect(run.stdout).not.toContain(KEY);
  });

  it('spends nothing by default: every paid check is skipped with the reason', async () => {
    const server = await startMock();
    const run = await verifyJson(server, ['--profile', 'ada-lovelace', '--generate-profile', 'grace-hopper']);
    expect(run.code).toBe(0);
    expect(server.service.balance('acme')).toBe(1000);
    const skipped = run.report.checks.filter((check) => check.status === 'skipped');
    expect(skipped.map((check) => check.id)).toEqual(
      expect.arrayContaining([
        'generate.no-idempotency-key-422',
        'read.existing',
        'generate.start',
        'rate-limit.429',
      ]),
    );
    expect(skipped.find((check) => check.id === 'generate.start')?.reason).toContain('--spend leaves 0');
    expect(run.report.credits_spent).toBe(0);
  });

  it('never spends more than --spend: a generation fits in 150, the update does not', async () => {
    const server = await startMock();
    const run = await verifyJson(server, ['--spend', '150', '--generate-profile', 'grace-hopper']);
    expect(failedChecks(run.report)).toEqual([]);
    expect(1000 - server.service.balance('acme')).toBeLessThanOrEqual(150);
    expect(run.report.checks.find((check) => check.id === 'generate.poll')?.status).toBe('passed');
    expect(run.report.checks.find((check) => check.id === 'update.start')?.status).toBe('skipped');
  });

  it('checks and honours a 429 met by chance', async () => {
    const server = await startMock(undefined, {
      accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { requests_per_minute: 3 } }],
    });
    const run = await verifyJson(server, []);
    expect(failedChecks(run.report)).toEqual([]);
    const met = run.report.checks.filter((check) => check.id === 'rate-limit.met');
    expect(met.length).toBeGreaterThan(0);
    expect(met.every((check) => check.status === 'passed')).toBe(true);
  });

  it('works behind a path prefix, as the SDK does', async () => {
    const server = await startMock(async (request, response, service) => {
      const url = new URL(request.url);
      // Control routes stay where they are; the API lives only under the prefix.
      if (url.pathname.startsWith('/_mock/')) return response;
      if (!url.pathname.startsWith('/staging/')) return new Response('not here', { status: 404 });
      url.pathname = url.pathname.slice('/staging'.length);
      return service.handle(new Request(url, request));
    });
    const run = await verifyJson(server, [], { origin: `${server.url}/staging/api/v1/` });
    expect(failedChecks(run.report)).toEqual([]);
    expect(run.report.origin).toBe(`${server.url}/staging`);
  });

  it('--json still prints one report when the key is refused, with exit 4 and never the key', async () => {
    const server = await startMock();
    let stdout = '';
    const code = await runVerifyCommand(
      ['--json'],
      { PROFILE_ARTICLES_API_KEY: 'refused-key-123', PROFILE_ARTICLES_BASE_URL: server.url },
      { stdout: (text) => (stdout += text), stderr: () => undefined },
    );
    expect(code).toBe(4);
    expect(JSON.parse(stdout)).toMatchObject({ key_refused: true, checks: [] });
    expect(stdout).not.toContain('refused-key-123');
  });

  it('keeps the endpoint column in place whatever statuses the table holds', () => {
    const check = (status: CheckStatus) => ({
      id: status,
      endpoint: 'GET /api/v1/credits',
      name: 'n',
      status,
    });
    const table = (statuses: CheckStatus[]) =>
      formatTable({
        origin: 'http://127.0.0.1:1',
        checks: statuses.map(check),
        credits_spent: 0,
        spend_limit: 0,
        summary: { passed: 0, failed: 0, skipped: 0, inconclusive: 0 },
      });
    const column = (text: string) => text.split('\n')[0]!.indexOf('GET ');
    expect(column(table(['passed']))).toBe('INCONCLUSIVE  '.length);
    expect(column(table(['passed', 'inconclusive']))).toBe('INCONCLUSIVE  '.length);
  });
});
