// --data's folder and files as another local user may have planted them: a link as the folder
// itself, an ancestor another user may change, files in the folder owned by another user or
// with a second name outside it, and hand-made files of the right version but the wrong shape.
// The cross-user cases chown to user 65534 (root only; skipped with the reason elsewhere).
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  lchownSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';
import { apiCaller } from './data-harness.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const root = () => mkdtempSync(join(tmpdir(), 'mock-owners-'));
const start = (dir: string) =>
  startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--data', dir]);
const outcome = (mock: ReturnType<typeof start>) =>
  Promise.race([mock.exited, mock.url.then(() => 'started' as const)]);
const line = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${createHash('sha256').update(json).digest('base64url').slice(0, 11)} ${json}\n`;
};

describe.skipIf(!isRoot)('the data folder and its ancestors (root: chown to another user)', () => {
  it("refuses a link planted as the folder itself by another user, and leaves the link's target alone", async () => {
    const top = root();
    const shared = join(top, 'shared');
    mkdirSync(shared, { mode: 0o755 });
    chownSync(shared, NOBODY, NOBODY);
    const victim = join(top, 'victim');
    mkdirSync(victim, { mode: 0o700 });
    const data = join(shared, 'data');
    symlinkSync(victim, data);
    lchownSync(data, NOBODY, NOBODY);
    const mock = start(data);
    expect(await outcome(mock)).toBe(1);
    expect(mock.stderr()).toContain(data);
    expect(mock.stderr()).toContain('chown');
    expect(readdirSync(victim)).toEqual([]);
  });

  it('refuses a folder under an ancestor owned by another user, naming the chown', async () => {
    const top = root();
    const theirs = join(top, 'theirs');
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, NOBODY, NOBODY);
    const mock = start(join(theirs, 'data'));
    expect(await outcome(mock)).toBe(1);
    expect(mock.stderr()).toContain(theirs);
    expect(mock.stderr()).toContain(`chown ${process.getuid?.()} ${theirs}`);
  });
});

describe("the data folder's ancestors", () => {
  it('refuses an ancestor others may write without the sticky bit, and accepts one with it (as /tmp)', async () => {
    const top = root();
    const open = join(top, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const refused = start(join(open, 'data'));
    expect(await outcome(refused)).toBe(1);
    expect(refused.stderr()).toContain(open);
    expect(refused.stderr()).toContain(`chmod go-w ${open}`);
    chmodSync(open, 0o1777);
    expect(await outcome(start(join(open, 'data')))).toBe('started');
  });
});

describe.skipIf(!isRoot)('files planted in the data folder (root: chown to another user)', () => {
  it('refuses a journal.log owned by another user, with a second link outside, and writes nothing to it', async () => {
    const top = root();
    const dir = join(top, 'data');
    mkdirSync(dir, { mode: 0o700 });
    const journal = join(dir, 'journal.log');
    writeFileSync(journal, line({ journal: 1, generation: 0, seed: 'chosen-by-them' }));
    chmodSync(journal, 0o666);
    chownSync(journal, NOBODY, NOBODY);
    linkSync(journal, join(top, 'their-copy.log'));
    const size = statSync(journal).size;
    const mock = start(dir);
    expect(await outcome(mock)).toBe(1);
    expect(mock.stderr()).toContain(journal);
    expect(mock.stderr()).toContain('move it away');
    expect(statSync(journal).size).toBe(size);
  });
});

describe('files in the data folder', () => {
  it('refuses a journal.log with a second link, and one that is not a regular file', async () => {
    const top = root();
    const dir = join(top, 'data');
    const first = start(dir);
    await first.url;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    linkSync(join(dir, 'journal.log'), join(top, 'outside.log'));
    const linked = start(dir);
    expect(await outcome(linked)).toBe(1);
    expect(linked.stderr()).toContain('journal.log');
    expect(linked.stderr()).toContain('link');
  });

  it('makes a file of ours that others may read 0600, with a note', async () => {
    const dir = join(root(), 'data');
    const first = start(dir);
    const url = await first.url;
    expect(
      (await apiCaller('demo-key')(url, 'POST', '/api/v1/credits/checkout', { credits: 50 })).status,
    ).toBeLessThan(300);
    first.child.kill('SIGTERM');
    await first.exited;
    chmodSync(join(dir, 'journal.log'), 0o644);
    chmodSync(join(dir, 'snapshot.json'), 0o666);
    const again = start(dir);
    expect(await outcome(again)).toBe('started');
    expect(statSync(join(dir, 'journal.log')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'snapshot.json')).mode & 0o777).toBe(0o600);
    expect(again.stderr()).toContain('journal.log');
    expect(again.stderr()).toContain('0600');
  });

  it('refuses on replay a forged charge of a negative amount (the balance would grow)', async () => {
    const dir = join(root(), 'data');
    const first = start(dir);
    const url = await first.url;
    expect((await apiCaller('demo-key')(url, 'GET', '/api/v1/credits')).status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    appendFileSync(
      join(dir, 'journal.log'),
      line([{ t: 'charge', at: Date.now(), a: 'demo', c: -1_000_000, r: 'read', p: null }]),
    );
    const again = start(dir);
    expect(await outcome(again)).toBe(1);
    expect(again.stderr()).toContain('is not one this mock wrote');
    expect(again.stdout()).not.toContain('http://');
  });

  it.each([
    ['snapshot.json', '{"version":1}'],
    ['journal.log', `${line({ journal: 1, generation: 0, seed: 's' })}${line([{ t: 'job' }])}`],
  ])(
    'refuses a hand-made %s of the right version but the wrong shape, before the URL',
    async (name, text) => {
      const dir = join(root(), 'data');
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, name), text, { mode: 0o600 });
      const mock = start(dir);
      expect(await outcome(mock)).toBe(1);
      expect(mock.stderr()).toContain(`${name} in ${dir} is not one this mock wrote`);
      expect(mock.stderr()).toContain('move it away');
      expect(mock.stderr()).not.toContain('TypeError');
      expect(mock.stdout()).not.toContain('http://');
    },
  );
});
