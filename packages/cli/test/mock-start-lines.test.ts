// What `profile-articles mock` prints once it listens: the same lines in the same order with a
// config as without one (the URL, the dashboard, the accounts, then the next steps), so the
// dashboard line never lands after "Stop it with Ctrl-C" and a config's accounts are named.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { expect, it } from 'vitest';

const config = join(mkdtempSync(join(tmpdir(), 'mock-start-lines-')), 'mock.json');
writeFileSync(
  config,
  JSON.stringify({
    accounts: [
      { id: 'acme', apiKeys: ['acme-key-0001'], credits: 500 },
      { id: 'beta', apiKeys: ['beta-key-0001'], credits: 20 },
    ],
  }),
);

/** The first word or two of each line that is not blank: what kind of line it is. */
const shape = (out: string) =>
  out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(
      (line) =>
        /^(Profile Article|Dashboard:|Demo account:|Accounts:|Next,|Stop it)/.exec(line)?.[1] ?? 'step',
    );

it('prints the same lines in the same order with --config as without, the accounts line included', async () => {
  const bare = startMockBin('profile-articles mock', ['--port', '0', '--no-log']);
  const configured = startMockBin('profile-articles mock', ['--port', '0', '--no-log', '--config', config]);
  const [plain, withConfig] = await Promise.all(
    [bare, configured].map((mock) => mock.waitForOutput(/Stop it with Ctrl-C\.\n/)),
  );
  const expected = shape(plain as string).map((kind) => (kind === 'Demo account:' ? 'Accounts:' : kind));
  expect(shape(withConfig as string)).toEqual(expected);
  expect(withConfig).toMatch(/^Accounts: acme \(500 credits\), beta \(20 credits\), from .*mock\.json$/m);
  expect(withConfig).not.toContain('acme-key-0001');
  for (const mock of [bare, configured]) mock.child.kill('SIGTERM');
  expect(await Promise.all([bare.exited, configured.exited])).toEqual([0, 0]);
});
