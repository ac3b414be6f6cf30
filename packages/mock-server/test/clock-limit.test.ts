// The mock's clock never shows a time past MAX_CLOCK_MS: an advance past it is a 422 naming the
// limit, a clock that real time carries there stops there, and a --data folder whose kept
// clock would pass it starts at the limit with a note instead of failing every start for good.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockService, MAX_CLOCK_MS } from '@profile-articles/mock-server';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';

const LIMIT = new Date(MAX_CLOCK_MS).toISOString();

async function advance(url: string, ms: number) {
  const response = await fetch(`${url}/_mock/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("the clock's limit", () => {
  it('refuses an advance past it with a 422 naming the limit, and real time stops there', async () => {
    let real = Date.parse('2026-12-01T00:00:00Z');
    const service = createMockService({}, { now: () => real });
    const refused = await service.handle(
      new Request('http://127.0.0.1/_mock/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: MAX_CLOCK_MS }),
      }),
    );
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain(LIMIT);
    service.advanceClock(MAX_CLOCK_MS - real - 1_000);
    expect(service.now()).toBe(MAX_CLOCK_MS - 1_000);
    real += 60_000; // a minute of real time: the clock shows the limit, never past it
    expect(service.now()).toBe(MAX_CLOCK_MS);
    expect(() => service.advanceClock(1)).toThrow(RangeError);
    expect(service.now()).toBe(MAX_CLOCK_MS);
  });

  it('a job whose next step would fall past the limit takes it at the limit, not never', async () => {
    let real = Date.parse('2026-12-01T00:00:00Z');
    const service = createMockService({ jobs: { queuedMs: 5_000, runningMs: 5_000 } }, { now: () => real });
    service.advanceClock(MAX_CLOCK_MS - real - 1_000);
    const started = await service.handle(
      new Request('http://127.0.0.1/api/v1/articles', {
        method: 'POST',
        headers: {
          authorization: 'Bearer demo-key',
          'content-type': 'application/json',
          'idempotency-key': 'k-limit',
        },
        body: JSON.stringify({ profile_id: 'p-limit' }),
      }),
    );
    expect(started.status).toBe(202);
    const { job_id } = (await started.json()) as { job_id: string };
    real += 60_000; // the clock stops at the limit
    const job = await service.handle(
      new Request(`http://127.0.0.1/api/v1/jobs/${job_id}`, {
        headers: { authorization: 'Bearer demo-key' },
      }),
    );
    expect(((await job.json()) as { status: string }).status).toBe('succeeded');
    expect(service.ledger().accounts[0]?.held).toBe(0);
  });

  it('a --data start whose kept clock would pass it starts at the limit, with a note', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mock-clock-')), 'data');
    const args = ['--port', '0', '--no-log', '--data', dir];
    const first = startMockBin('profile-articles-mock', args);
    const url = await first.url;
    const now = Date.parse((await advance(url, 0)).body.now);
    expect((await advance(url, MAX_CLOCK_MS - now - 60_000)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Two minutes of real time later, as the snapshot sees it: its kept clock is past the limit.
    const path = join(dir, 'snapshot.json');
    const snapshot = JSON.parse(readFileSync(path, 'utf8'));
    snapshot.clock.offset += 120_000;
    writeFileSync(path, JSON.stringify(snapshot));
    for (let start = 0; start < 2; start++) {
      const again = startMockBin('profile-articles-mock', args);
      const later = await again.url;
      expect((await advance(later, 0)).body.now).toBe(LIMIT);
      expect(again.stderr()).toContain(`starts at ${LIMIT}`);
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }
  });
});
