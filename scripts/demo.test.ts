// `pnpm demo` must keep working: the tour runs every CLI step (in-process, as `run(argv, io)`)
// against the embedded mock and exits 0. Piped, its jobs finish at once (no spinner to watch):
// about 4 s idle. No wall-clock assertion: on a loaded machine the same run took 15 s and more,
// and a time goal belongs in a benchmark; a demo that hung is caught by the time limit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('the demo tour passes every step', () => {
  const script = fileURLToPath(new URL('./demo.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  expect(result.stderr).not.toContain('Demo failed');
  expect(result.status).toBe(0);
  for (const command of [
    'credits',
    'generate ada-lovelace',
    'read ada-lovelace',
    'update ada-lovelace',
    'generate fail-demo-person',
    'buy 500 --wait',
  ]) {
    expect(result.stdout).toContain(`$ profile-articles ${command}`);
  }
  expect(result.stdout + result.stderr).toContain('Payment received: your balance is 1299 credits');
  expect(result.stdout).toContain('(exit code 3)');
}, 120_000);
