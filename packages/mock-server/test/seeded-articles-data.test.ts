// Seeded articles with --data, over the running bin: the config's articles are made in a fresh
// folder and at a reset, never over what a folder holds; POST /_mock/articles is kept across a
// restart (journal version 2's `article` record, and the snapshot's). A version-1 folder, made by
// this mock with its version set back (it wrote nothing a version 1 could not), is read and goes
// on as version 2.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiCaller, dataFolder, startWithData } from './data-harness.js';

const KEY = 'seeded-key-0001';
const call = apiCaller(KEY);

/** A journal line as the mock writes it (data/journal-format.ts), spelt out again here. */
const line = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${createHash('sha256').update(json).digest('base64url').slice(0, 11)} ${json}\n`;
};

/** A folder whose config seeds `articles`. */
function folderWith(articles: unknown[]) {
  const where = dataFolder('mock-seeded-', KEY, 1000, 1000);
  const config = JSON.parse(readFileSync(where.config, 'utf8'));
  writeFileSync(where.config, JSON.stringify({ ...config, articles }));
  return where;
}

const setArticles = (where: { config: string }, articles: unknown[]) => {
  const config = JSON.parse(readFileSync(where.config, 'utf8'));
  writeFileSync(where.config, JSON.stringify({ ...config, articles }));
};

const readTitle = async (url: string, profile: string) => {
  const read = await call(url, 'GET', `/api/v1/articles/${profile}`);
  return read.status === 200 ? (read.body.article.title as string) : read.status;
};

const headerOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'journal.log'), 'utf8').split('\n')[0]!.slice(12));

describe('seeded articles with --data', () => {
  it('seeds a fresh folder, keeps what it holds across restarts and a changed config, and seeds again at a reset', async () => {
    const where = folderWith([{ profileId: 'ada', title: 'Seeded Ada' }]);
    const first = startWithData(where);
    const url = await first.url;
    expect(await readTitle(url, 'ada')).toBe('Seeded Ada');
    const posted = await fetch(`${url}/_mock/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ profileId: 'grace', title: 'Posted Grace', infobox: null }),
    });
    expect(posted.status).toBe(201);
    const grace = await posted.json();
    expect(headerOf(where.dir).journal).toBe(2);
    first.child.kill('SIGKILL'); // the journal alone holds them: no snapshot
    await first.exited;

    // Another config: a folder that holds something keeps it, and gets none of the config's.
    setArticles(where, [
      { profileId: 'ada', title: 'Another Ada' },
      { profileId: 'linus', title: 'Seeded Linus' },
    ]);
    const second = startWithData(where);
    const url2 = await second.url;
    expect(await readTitle(url2, 'ada')).toBe('Seeded Ada');
    expect(await readTitle(url2, 'linus')).toBe(404);
    expect((await call(url2, 'GET', '/api/v1/articles/grace')).body.article).toEqual(grace);
    // Three reads of 1 credit (the 404 costs nothing): nothing charged for the seeds.
    expect((await call(url2, 'GET', '/api/v1/credits')).body.credits).toBe(997);

    // A reset seeds the config it runs with, and that is kept.
    expect((await call(url2, 'POST', '/_mock/reset')).status).toBe(200);
    expect(await readTitle(url2, 'linus')).toBe('Seeded Linus');
    expect(await readTitle(url2, 'grace')).toBe(404);
    second.child.kill('SIGTERM'); // a snapshot (version 2) takes them in
    expect(await second.exited).toBe(0);
    expect(JSON.parse(readFileSync(join(where.dir, 'snapshot.json'), 'utf8')).version).toBe(2);

    setArticles(where, []);
    const third = startWithData(where);
    const url3 = await third.url;
    expect(await readTitle(url3, 'ada')).toBe('Another Ada');
    expect(await readTitle(url3, 'linus')).toBe('Seeded Linus');
  });

  it('reads a version-1 folder (journal and snapshot), then writes version 2 on', async () => {
    const where = folderWith([]);
    const made = startWithData(where);
    const url = await made.url;
    const job = await call(url, 'POST', '/api/v1/articles', { profile_id: 'pat-one' }, 'k1');
    expect(job.status).toBe(202);
    made.child.kill('SIGTERM');
    await made.exited;
    const again = startWithData(where);
    const urlAgain = await again.url;
    expect((await call(urlAgain, 'POST', '/api/v1/articles', { profile_id: 'pat-two' }, 'k2')).status).toBe(
      202,
    );
    again.child.kill('SIGKILL');
    await again.exited;

    // Back to version 1: the snapshot's version field, and the journal's header. Nothing in
    // either is of a kind version 1 did not have.
    const snapshotPath = join(where.dir, 'snapshot.json');
    const snapshot = JSON.parse(readFileSync(snapshotPath, 'utf8'));
    expect(snapshot.articles.every((row: unknown[]) => row.length === 5)).toBe(true);
    writeFileSync(snapshotPath, JSON.stringify({ ...snapshot, version: 1 }));
    const journalPath = join(where.dir, 'journal.log');
    const [, ...records] = readFileSync(journalPath, 'utf8').split('\n');
    const header = headerOf(where.dir);
    expect(records.join('\n')).toContain('"t":"job"');
    writeFileSync(journalPath, [line({ ...header, journal: 1 }).trimEnd(), ...records].join('\n'));

    const old = startWithData(where);
    const oldUrl = await old.url;
    await call(oldUrl, 'POST', '/_mock/clock/advance', { ms: 5000 });
    expect(await readTitle(oldUrl, 'pat-one')).toBe('Pat One');
    expect(await readTitle(oldUrl, 'pat-two')).toBe('Pat Two');
    expect((await call(oldUrl, 'GET', '/api/v1/credits')).body.credits).toBe(798);
    expect(headerOf(where.dir)).toEqual({ ...header, journal: 2 });
    const seeded = await call(oldUrl, 'POST', '/_mock/articles', { profileId: 'new-one', title: 'New' });
    expect(seeded.status).toBe(201);
    old.child.kill('SIGKILL');
    await old.exited;

    const next = startWithData(where);
    const nextUrl = await next.url;
    expect(await readTitle(nextUrl, 'new-one')).toBe('New');
    expect(await readTitle(nextUrl, 'pat-two')).toBe('Pat Two');
  });

  it('refuses an article record under a version-1 header, as a record of a shape this mock never wrote', async () => {
    const where = folderWith([]);
    const made = startWithData(where);
    const url = await made.url;
    expect((await call(url, 'POST', '/_mock/articles', { profileId: 'x' })).status).toBe(201);
    made.child.kill('SIGKILL');
    await made.exited;
    const journalPath = join(where.dir, 'journal.log');
    const [, ...records] = readFileSync(journalPath, 'utf8').split('\n');
    writeFileSync(
      journalPath,
      [line({ ...headerOf(where.dir), journal: 1 }).trimEnd(), ...records].join('\n'),
    );
    const refused = startWithData(where);
    expect(await Promise.race([refused.exited, refused.url.then(() => 'started')])).toBe(1);
    expect(refused.stderr()).toContain('is not of a shape this mock writes');
  });
});
