// --data's snapshot while serving (every 20,000 records) when it cannot be written: the mock
// goes on on the old snapshot and journal, says so, and tries again 20,000 records later. In
// process, over the real folder: a folder-wide failure is made by a folder standing where the
// snapshot's temporary goes (the exclusive create fails), which a full disk fails the same way.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDataFolder } from '../src/data/folder.js';
import { createMockService, type ServiceOptionsWithData } from '../src/service.js';

const KEY = 'compaction-key-0001';
const config = { accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000 }] };

const generate = (service: ReturnType<typeof createMockService>, profile: string) =>
  service.handle(
    new Request('http://mock.test/api/v1/articles', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        'idempotency-key': profile,
      },
      body: JSON.stringify({ profile_id: profile }),
    }),
  );

/** `count` records, each its own journal line (a turn ends at each await). */
async function records(service: ReturnType<typeof createMockService>, count: number) {
  for (let i = 0; i < count; i++) {
    service.advanceClock(0);
    await null;
  }
}

const flushed = async (folder: ReturnType<typeof openDataFolder>) => {
  await folder.whenDurable();
  await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('--data: a snapshot that cannot be written while serving', () => {
  it('keeps serving on the old files, says so, and writes it 20,000 records later', {
    timeout: 120_000,
  }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mock-compact-')), 'data');
    const errors: string[] = [];
    const folder = openDataFolder(dir, (error) => errors.push((error as Error).message));
    const service = createMockService(config, { data: folder } as ServiceOptionsWithData);
    mkdirSync(join(dir, 'snapshot.json.tmp'));
    await records(service, 20_000);
    await flushed(folder);
    expect(errors.join('\n')).toMatch(
      /cannot write a snapshot in .* \(EEXIST\); the mock goes on with the previous snapshot and the journal, and tries again after 20000 more records/,
    );
    expect(existsSync(join(dir, 'snapshot.json'))).toBe(false);
    // Still serving and keeping: a paid generate is answered and on disk.
    const started = await generate(service, 'ada');
    expect(started.status).toBe(202);
    const { job_id: jobId } = (await started.json()) as { job_id: string };
    expect(readFileSync(join(dir, 'journal.log'), 'utf8')).toContain('"t":"job"');

    // Not tried again at once: only once 20,000 more records have come.
    rmSync(join(dir, 'snapshot.json.tmp'), { recursive: true });
    await records(service, 100);
    await flushed(folder);
    expect(existsSync(join(dir, 'snapshot.json'))).toBe(false);
    await records(service, 20_000);
    await flushed(folder);
    expect(JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')).generation).toBe(1);
    await folder.close();

    const reopened = openDataFolder(dir, () => {});
    const again = createMockService(config, { data: reopened } as ServiceOptionsWithData);
    const replay = await generate(again, 'ada');
    expect(((await replay.json()) as { job_id: string }).job_id).toBe(jobId);
    expect(again.balance('acme')).toBe(900);
    await reopened.close();
  });
});
