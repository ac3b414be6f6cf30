// --data's folder and files, over the real bin: a folder the mock creates is 0700 and each file
// it writes 0600 whatever the umask; an existing folder keeps its mode, and is refused when
// another user owns it or others may write in it; a link planted where a temporary goes is
// removed, never followed (the file it points at is untouched); a temporary a crash left does
// not block the next snapshot. The cross-user case runs a second user with setpriv (root only).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOCK_BIN, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';

const KEY = 'folder-files-key-0001';

function folder(): { root: string; dir: string; config: string } {
  const root = mkdtempSync(join(tmpdir(), 'mock-files-'));
  const config = join(root, 'config.json');
  writeFileSync(config, JSON.stringify({ accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000 }] }));
  return { root, dir: join(root, 'data'), config };
}

const start = (where: { dir: string; config: string }, prefix: string[] = []) =>
  startMockBin(
    'profile-articles-mock',
    ['--port', '0', '--no-log', '--config', where.config, '--data', where.dir],
    process.env,
    prefix,
  );

const generate = (url: string, profile: string) =>
  fetch(`${url}/api/v1/articles`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'idempotency-key': `key-${profile}`,
    },
    body: JSON.stringify({ profile_id: profile }),
  });

const mode = (path: string) => statSync(path).mode & 0o777;

const NOBODY = 65534;
const canSwitchUser =
  process.getuid?.() === 0 &&
  spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0;
const asNobody = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'];
const nobodyRunsTheBin =
  canSwitchUser &&
  spawnSync(asNobody[0] as string, [...asNobody.slice(1), process.execPath, MOCK_BIN, '--help']).status === 0;

describe('profile-articles-mock --data: its folder and files', () => {
  it('creates its folder 0700 and writes each file 0600, even under umask 000', async () => {
    const where = folder();
    const mock = start(where, ['bash', '-c', 'umask 000; exec "$0" "$@"']);
    expect((await generate(await mock.url, 'ada')).status).toBe(202);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mode(where.dir)).toBe(0o700);
    expect(mode(join(where.dir, 'journal.log'))).toBe(0o600);
    expect(mode(join(where.dir, 'snapshot.json'))).toBe(0o600);
  });

  it('keeps the mode of a folder that is there (0750), and refuses one that others may write', async () => {
    const kept = folder();
    mkdirSync(kept.dir, { mode: 0o750 });
    chmodSync(kept.dir, 0o750);
    const mock = start(kept);
    expect((await generate(await mock.url, 'ada')).status).toBe(202);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mode(kept.dir)).toBe(0o750);

    const open = folder();
    mkdirSync(open.dir);
    chmodSync(open.dir, 0o777);
    const refused = start(open);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain(
      `Refusing the data folder ${open.dir}: group and others may write in it`,
    );
    expect(refused.stderr()).toContain(`chmod go-w ${open.dir}`);
    expect(existsSync(join(open.dir, 'journal.log'))).toBe(false);
    expect(mode(open.dir)).toBe(0o777);
  });

  it('removes links planted where its temporaries go, and a temporary a crash left, never writing through them', async () => {
    const where = folder();
    mkdirSync(where.dir, { mode: 0o700 });
    const victim = join(where.root, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(where.dir, 'snapshot.json.tmp'));
    symlinkSync(join(where.root, 'made-through-a-link'), join(where.dir, 'journal.log.tmp'));
    const mock = start(where);
    const url = await mock.url;
    // Both are gone by the time it serves: a later one would make its write fail, not follow.
    expect(existsSync(join(where.dir, 'journal.log.tmp'))).toBe(false);
    expect(() => lstatSync(join(where.dir, 'snapshot.json.tmp'))).toThrow();
    expect((await generate(url, 'ada')).status).toBe(202);
    // A kill -9 in the middle of a snapshot leaves its temporary behind.
    mock.child.kill('SIGKILL');
    await mock.exited;
    writeFileSync(join(where.dir, 'snapshot.json.tmp'), '{"half a snap');
    const second = start(where);
    expect((await generate(await second.url, 'grace')).status).toBe(202);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(existsSync(join(where.root, 'made-through-a-link'))).toBe(false);
    expect(JSON.parse(readFileSync(join(where.dir, 'snapshot.json'), 'utf8')).version).toBe(2);
  });

  it.skipIf(!canSwitchUser)(
    "refuses a folder another user made (links planted in it), naming the chown that fixes it; the victim's file is untouched",
    async () => {
      const where = folder();
      chmodSync(where.root, 0o1777); // shared, as /tmp is
      const victim = join(where.root, 'victim.txt');
      writeFileSync(victim, 'precious\n');
      // The other user makes the folder, 0755 so that only they may write in it, and plants links.
      const planted = spawnSync(asNobody[0] as string, [
        ...asNobody.slice(1),
        'sh',
        '-c',
        `mkdir -m 0755 ${where.dir} && ln -s ${victim} ${where.dir}/snapshot.json.tmp && ln -s ${victim} ${where.dir}/journal.log.tmp && ln -s ${victim} ${where.dir}/journal.log`,
      ]);
      expect(planted.stderr.toString()).toBe('');
      expect(planted.status).toBe(0);
      const mock = start(where);
      expect(await mock.exited).toBe(1);
      expect(mock.stderr()).toContain(
        `Refusing the data folder ${where.dir}: it belongs to user ${NOBODY}, not to this mock's user 0`,
      );
      expect(mock.stderr()).toContain(`chown 0 ${where.dir}`);
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    },
  );

  // That user must be able to run this checkout's Node and bin: not so in a clone under a
  // folder only root may enter (mktemp -d), where this half is skipped.
  it.skipIf(!nobodyRunsTheBin)(
    "another user's mock refuses a folder this user made, naming the chown that fixes it",
    async () => {
      const mine = folder();
      chmodSync(mine.root, 0o755);
      chmodSync(mine.config, 0o644);
      mkdirSync(mine.dir, { mode: 0o755 });
      const theirs = start(mine, asNobody);
      expect(await theirs.exited).toBe(1);
      expect(theirs.stderr()).toContain(`chown ${NOBODY} ${mine.dir}`);
    },
  );
});
