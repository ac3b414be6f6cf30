// `pnpm demo` builds only what is stale (issue 26: it rebuilt every package, declarations
// included, on every run). Proven on a workspace of its own whose file times the test sets.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, without declarations
import { staleness } from './build-stale.mjs';

/** packages/sdk, then cli (which depends on it), every file at time 1000 s, dist/ at 2000 s. */
function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'pa-stale-'));
  const file = (path: string, text: string, seconds: number) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    utimesSync(full, seconds, seconds);
  };
  const manifest = (name: string, deps: Record<string, string> = {}) =>
    JSON.stringify({ name, scripts: { build: 'tsup' }, dependencies: deps });
  file('packages/sdk/package.json', manifest('@x/sdk'), 1000);
  file('packages/cli/package.json', manifest('@x/cli', { '@x/sdk': 'workspace:^' }), 1000);
  file('packages/test-utils/package.json', JSON.stringify({ name: '@x/test-utils' }), 1000);
  for (const name of ['sdk', 'cli']) {
    file(`packages/${name}/src/index.ts`, '', 1000);
    file(`packages/${name}/dist/index.js`, '', 2000);
  }
  file('docs/guides/mock.md', '', 1000);
  const stale = () =>
    Object.fromEntries(staleness(root).map((r: { dir: string; stale: boolean }) => [r.dir, r.stale]));
  /** Changes a file's time only, creating an empty one where there is none. */
  const touch = (path: string, seconds: number) => {
    const full = join(root, path);
    if (!existsSync(full)) file(path, '', seconds);
    utimesSync(full, seconds, seconds);
  };
  return { file, touch, stale, root };
}

it('builds nothing when every dist/ is newer than what it is built from', () => {
  const { stale } = workspace();
  expect(stale()).toEqual({ sdk: false, cli: false });
});

it('orders each package after those it depends on', () => {
  const { root } = workspace();
  expect(staleness(root).map((r: { dir: string }) => r.dir)).toEqual(['sdk', 'cli']);
});

it('builds a package whose source, manifest or config changed, or whose dist/ is missing', () => {
  for (const path of [
    'packages/sdk/src/index.ts',
    'packages/sdk/package.json',
    'packages/sdk/tsup.config.ts',
  ]) {
    const { touch, stale } = workspace();
    touch(path, 3000);
    expect(stale()).toMatchObject({ sdk: true });
  }
  const old = workspace();
  old.touch('packages/cli/dist/index.js', 500);
  expect(old.stale()).toEqual({ sdk: false, cli: true });
  const missing = workspace();
  rmSync(join(missing.root, 'packages/cli/dist'), { recursive: true });
  expect(missing.stale()).toEqual({ sdk: false, cli: true });
});

it('builds a package when one it depends on was built after it, or its guides changed', () => {
  const first = workspace();
  first.file('packages/sdk/dist/index.js', '', 3000);
  expect(first.stale()).toEqual({ sdk: false, cli: true });
  const second = workspace();
  second.file('docs/guides/mock.md', 'changed', 3000);
  expect(second.stale()).toEqual({ sdk: false, cli: true });
});

it('does not build for a test, a README or a test file changed', () => {
  const { file, stale } = workspace();
  file('packages/sdk/README.md', 'changed', 3000);
  file('packages/sdk/test/a.test.ts', 'changed', 3000);
  file('packages/sdk/src/a.test.ts', 'changed', 3000);
  expect(stale()).toEqual({ sdk: false, cli: false });
});
