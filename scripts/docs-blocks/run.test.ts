// A docs block that starts the mock on the documented port 4010 (or on the default, which is
// 4010 too) must not depend on that port being free: the machine is shared and test files run
// side by side. The runner gives each shell block a free port instead; the docs keep showing 4010.
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { CodeBlock } from './extract.js';
import { prepareWorkspace, runBlock } from './run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const shell = (code: string): CodeBlock => ({ where: 'run.test.ts', kind: 'sh', code, runnable: true });

/** Runs a block that starts a mock, asks it for the balance, and prints where it listened. */
async function listeningPort(start: string): Promise<{ code: number | null; port: string; output: string }> {
  const block = shell(
    [
      `${start} > mock.log &`,
      "trap 'kill $!' EXIT",
      // Until the mock says it listens, or has ended: no count of tries to run out on a slow machine.
      'until grep -q listening mock.log 2>/dev/null || ! kill -0 $! 2>/dev/null; do sleep 0.1; done',
      'export PROFILE_ARTICLES_BASE_URL=http://127.0.0.1:4010',
      'export PROFILE_ARTICLES_API_KEY=demo-key',
      'profile-articles credits --json',
      'cat mock.log',
    ].join('\n'),
  );
  const run = await runBlock(root, prepareWorkspace(root, 'docs-blocks-run-test'), 0, block, {}, 30_000);
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.output)?.[1] ?? '';
  return { code: run.code, port, output: run.output };
}

it('gives a block that names port 4010 a free port of its own', async () => {
  const run = await listeningPort('profile-articles mock --port 4010');
  expect(run.code, run.output).toBe(0);
  expect(run.port).toMatch(/^\d+$/);
  expect(run.port).not.toBe('4010');
});

it('gives a mock started on the default port a free port too', async () => {
  const run = await listeningPort('profile-articles-mock');
  expect(run.code, run.output).toBe(0);
  expect(run.port).toMatch(/^\d+$/);
  expect(run.port).not.toBe('4010');
});
