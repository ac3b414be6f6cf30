// The settings folder and file as an attacker on the same machine leaves them: a folder another
// user owns or may write in, a link another user owns, a config.json that is theirs, a link or
// has a second name; a lock whose holder stalls; a full disk. In process where the folder and
// file are all there is; spawned bins for a umask, a lock holder of another process, `ulimit -f`
// and a mount, which are a process's own.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, runCli, runInProcess } from './helpers.js';

const NOBODY = 65534;
const root = process.getuid?.() === 0;
const clean = { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined };
const fresh = (name: string) => mkdtempSync(join(tmpdir(), `cli-settings-${name}-`));
const plant = (dir: string, profiles: object) =>
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });

/** One line on stderr, exit 1, naming `where` and the fix; the key stored nowhere. */
function expectRefused(
  run: { code: number | null; stderr: string; stdout: string },
  where: string,
  fix: string,
) {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain(where);
  expect(run.stderr).toContain(fix);
  expect(run.stderr).not.toContain(KEYS.main);
}

describe('a settings folder or file someone else can change', () => {
  it('refuses a folder group and others may write (0777) for config set, and for a read before any key is sent', async () => {
    const dir = fresh('open');
    chmodSync(dir, 0o777);
    plant(dir, { default: { baseUrl: 'http://127.0.0.1:9' } });
    const env = { ...clean, PROFILE_ARTICLES_CONFIG_DIR: dir };
    const set = await runInProcess(['config', 'set', 'api-key', KEYS.main], { env });
    expectRefused(set, `settings folder ${dir}`, `chmod go-w ${dir}`);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(KEYS.main);

    // A key stored before the folder was opened up is not sent either.
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      plant(dir, { default: { apiKey: KEYS.main, baseUrl: origin } });
      const credits = await runInProcess(['credits'], { env });
      expectRefused(credits, `settings folder ${dir}`, `chmod go-w ${dir}`);
      expect(seen).toEqual([]);
    } finally {
      server.close();
    }
  });

  it.skipIf(!root)(
    'refuses a folder, a link and a config.json that another user owns, and a config.json with two links or that is a link',
    {
      timeout: 30_000,
    },
    async () => {
      // The attacker's folder: theirs, mode 0755, with an origin in its config.json.
      const theirs = fresh('theirs');
      plant(theirs, { default: { baseUrl: 'http://127.0.0.1:9' } });
      chownSync(join(theirs, 'config.json'), NOBODY, NOBODY);
      chmodSync(theirs, 0o755);
      chownSync(theirs, NOBODY, NOBODY);
      const set = (dir: string) =>
        runInProcess(['config', 'set', 'api-key', KEYS.main], {
          env: { ...clean, PROFILE_ARTICLES_CONFIG_DIR: dir },
        });
      expectRefused(await set(theirs), `settings folder ${theirs}`, `chown 0 ${theirs}`);

      // A link another user owns, to a folder of the victim's: they may re-point it at any time.
      const mine = fresh('mine');
      const link = join(fresh('links'), 'settings');
      symlinkSync(mine, link);
      lchownSync(link, NOBODY, NOBODY);
      expectRefused(await set(link), `settings folder ${link}`, `chown -h 0 ${link}`);

      // The victim's own folder, with a config.json that is not theirs alone.
      const own = fresh('own');
      plant(own, { default: { baseUrl: 'http://127.0.0.1:9' } });
      const file = join(own, 'config.json');
      chownSync(file, NOBODY, NOBODY);
      expectRefused(await set(own), `settings file ${file}`, `chown 0 ${file}`);
      chownSync(file, 0, 0);
      linkSync(file, join(fresh('elsewhere'), 'second-name'));
      expectRefused(await set(own), `settings file ${file}`, 'has 2 links');

      const linked = fresh('file-link');
      symlinkSync(file, join(linked, 'config.json'));
      expectRefused(await set(linked), `settings file ${join(linked, 'config.json')}`, 'is a link');
      // None of them got the key.
      for (const where of [theirs, mine, own]) {
        const stored = join(where, 'config.json');
        if (existsSync(stored)) expect(readFileSync(stored, 'utf8')).not.toContain(KEYS.main);
      }
    },
  );

  it('creates a missing settings folder 0700 and config.json 0600, even under umask 000', () => {
    const dir = join(fresh('made'), 'a', 'settings');
    const run = spawnSync(
      'bash',
      [
        '--norc',
        '-c',
        `umask 000; exec "${process.execPath}" "${BIN}" config set base-url http://127.0.0.1:4000`,
      ],
      {
        env: { PATH: process.env.PATH, CI: 'true', PROFILE_ARTICLES_CONFIG_DIR: dir },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

/** This process's boot id and PID namespace, as data/lock.ts writes them in a lock. */
const where = () =>
  `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${statSync('/proc/self/ns/pid').ino}`;

describe('the settings lock', () => {
  it.skipIf(process.platform !== 'linux')(
    'is never taken over from a holder that still runs, however long it has stalled: after 5 s nothing was written',
    {
      timeout: 30_000,
    },
    async () => {
      const dir = fresh('stalled');
      const env = { ...clean, PROFILE_ARTICLES_CONFIG_DIR: dir };
      expect((await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4000'], { env })).code).toBe(0);
      const before = readFileSync(join(dir, 'config.json'), 'utf8');
      // A holder that runs (here: this test's own process) and stopped touching its lock 60 s ago.
      const lock = join(dir, 'config.json.lock');
      writeFileSync(lock, `${process.pid} ${where()}\n`);
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      const set = await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4001'], { env });
      expect(set.code, set.stderr).toBe(1);
      expect(set.stdout).not.toContain('Set');
      expect(set.stderr).toContain('nothing was written');
      expect(set.stderr).toContain(`pid ${process.pid}`);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
      expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} ${where()}\n`);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'is taken over at once from a holder of this namespace that is gone',
    async () => {
      const dir = fresh('gone');
      const env = { ...clean, PROFILE_ARTICLES_CONFIG_DIR: dir };
      const gone = spawnSync('true').pid;
      writeFileSync(join(dir, 'config.json.lock'), `${gone} ${where()}\n`);
      const set = await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4001'], { env });
      expect(set.code, set.stderr).toBe(0);
      expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
    },
  );
});

describe('config set base-url on a profile that stores a key', () => {
  it('says on stderr that the stored key now goes to the new origin, naming the profile and how to undo it', async () => {
    const dir = fresh('repoint');
    const env = { ...clean, PROFILE_ARTICLES_CONFIG_DIR: dir };
    plant(dir, {
      default: { apiKey: KEYS.main, baseUrl: 'https://api.example.com' },
      prod: { apiKey: KEYS.poor, baseUrl: 'https://api.example.com' },
    });
    const prod = await runInProcess(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], {
      env: { ...env, PROFILE_ARTICLES_PROFILE: 'prod' },
    });
    expect(prod.code, prod.stderr).toBe(0);
    const warning = prod.stderr.split('\n').filter((line) => line.includes('http://127.0.0.1:4010'));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain('Profile "prod" stores a key');
    expect(warning[0]).toContain('stored key will now be sent to http://127.0.0.1:4010');
    expect(warning[0]).toContain('config unset api-key --profile prod');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod.baseUrl).toBe(
      'http://127.0.0.1:4010',
    );
    // The same origin again, or a profile with no key: nothing to say.
    const again = await runInProcess(
      ['config', 'set', 'base-url', 'http://127.0.0.1:4010', '--profile', 'prod'],
      {
        env,
      },
    );
    expect(again.stderr).not.toContain('will now be sent');
    const keyless = await runInProcess(
      ['config', 'set', 'base-url', 'http://127.0.0.1:4011', '--profile', 'dev'],
      {
        env,
      },
    );
    expect(keyless.code, keyless.stderr).toBe(0);
    expect(keyless.stderr).not.toContain('will now be sent');
  });
});

/** Runs the bin under `ulimit -f BLOCKS` (512-byte blocks), SIGXFSZ ignored so a write fails with EFBIG. */
const underFileLimit = (blocks: number, args: string[], dir: string) =>
  spawnSync(
    'bash',
    [
      '--norc',
      '-c',
      `trap '' XFSZ; ulimit -f ${blocks}; exec "${process.execPath}" "${BIN}" "$@"`,
      'bash',
      ...args,
    ],
    { env: { PATH: process.env.PATH, CI: 'true', PROFILE_ARTICLES_CONFIG_DIR: dir }, encoding: 'utf8' },
  );

describe('a settings write on a full disk', () => {
  it('leaves no lock file when the lock cannot be written (ulimit -f 0), and the old file as it was', async () => {
    const dir = fresh('fsize0');
    const env = { ...clean, PROFILE_ARTICLES_CONFIG_DIR: dir };
    expect((await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4000'], { env })).code).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const run = underFileLimit(0, ['config', 'set', 'base-url', 'http://127.0.0.1:4001'], dir);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(join(dir, 'config.json'));
    expect(run.stderr).toContain('EFBIG');
    expect(run.stderr).toContain('nothing was written');
    expect(run.stderr).not.toContain('This is a bug');
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    // The next write is not blocked.
    expect((await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:4002'], { env })).code).toBe(0);
  });

  it('says so in one line when the settings file itself cannot be written whole (ulimit -f 1), keeping the old one', async () => {
    const dir = fresh('fsize1');
    // More than 512 bytes of settings: the lock fits under the limit, the new file does not.
    plant(
      dir,
      Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`p${i}`, { baseUrl: `http://127.0.0.1:${4000 + i}` }]),
      ),
    );
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const run = underFileLimit(1, ['config', 'set', 'base-url', 'http://127.0.0.1:5000'], dir);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`settings file ${join(dir, 'config.json')} (EFBIG)`);
    expect(run.stderr).toContain('nothing was written');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
    expect(existsSync(join(dir, 'config.json.tmp'))).toBe(false);
  });

  const canMount = root && spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']).status === 0;
  it.skipIf(!canMount)(
    'reports ENOSPC on a full tmpfs in one line (not as a bug), leaving no lock and the old file',
    () => {
      const disk = fresh('tmpfs');
      const dir = join(disk, 'settings');
      const script = [
        'set -e',
        `mount -t tmpfs -o size=64k tmpfs "${disk}"`,
        `"${process.execPath}" "${BIN}" config set base-url http://127.0.0.1:4000 >/dev/null`,
        `cp "${dir}/config.json" "${disk}/../before-$$" 2>/dev/null || true`,
        `dd if=/dev/zero of="${disk}/fill" bs=4k 2>/dev/null || true`,
        'set +e',
        `"${process.execPath}" "${BIN}" config set base-url http://127.0.0.1:4001; echo "exit=$?"`,
        `ls -a "${dir}"; echo "---"; cat "${dir}/config.json"`,
      ].join('\n');
      const run = spawnSync(
        'unshare',
        ['--mount', '--propagation', 'private', 'bash', '--norc', '-c', script],
        {
          env: { PATH: process.env.PATH, CI: 'true', PROFILE_ARTICLES_CONFIG_DIR: dir },
          encoding: 'utf8',
        },
      );
      expect(run.stdout, run.stderr).toContain('exit=1');
      expect(run.stderr).toContain('ENOSPC');
      expect(run.stderr).toContain('nothing was written');
      expect(run.stderr).not.toContain('This is a bug');
      const [listing = '', kept = ''] = run.stdout.split('---');
      expect(listing).not.toContain('config.json.lock');
      expect(listing).not.toContain('config.json.tmp');
      expect(JSON.parse(kept).profiles.default.baseUrl).toBe('http://127.0.0.1:4000');
    },
  );
});
