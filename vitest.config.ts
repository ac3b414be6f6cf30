import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));
const resolveFromRoot = createRequire(import.meta.url).resolve;

// The test files that run the mock's msw handlers: a transport list or a start with 'msw'.
const mswTests = readdirSync(join(root, 'packages'))
  .map((name) => join('packages', name, 'test'))
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)),
  )
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) =>
    /\[\s*'http',\s*'msw'\s*\]|startMock\(\s*'msw'|\['msw',/.test(readFileSync(join(root, file), 'utf8')),
  );

// Tests import the workspace packages from source, so a change is tested without a rebuild.
// The CLI's end-to-end tests spawn the built bin, which `pnpm test` builds first. The examples
// are not here: each runs its own `test` script against the built packages, as a customer's
// project would (`pnpm test:examples`).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@profile-articles\/sdk\/schemas$/, replacement: src('sdk/src/schemas/index.ts') },
      { find: /^@profile-articles\/sdk\/internal$/, replacement: src('sdk/src/internal.ts') },
      { find: /^@profile-articles\/sdk\/internal\/terminal$/, replacement: src('sdk/src/terminal.ts') },
      // What Node resolves the package to (its `node` export condition): node:http by default.
      { find: /^@profile-articles\/sdk$/, replacement: src('sdk/src/node.ts') },
      { find: /^@profile-articles\/mock-server\/msw$/, replacement: src('mock-server/src/msw.ts') },
      { find: /^@profile-articles\/mock-server\/internal$/, replacement: src('mock-server/src/internal.ts') },
      { find: /^@profile-articles\/mock-server\/flags$/, replacement: src('mock-server/src/flags.ts') },
      { find: /^@profile-articles\/mock-server\/files$/, replacement: src('mock-server/src/files.ts') },
      { find: /^@profile-articles\/mock-server$/, replacement: src('mock-server/src/index.ts') },
      // The private test helpers (packages/test-utils): never built, always read from source.
      { find: /^@profile-articles\/test-utils\/(.+)$/, replacement: src('test-utils/src/$1.ts') },
    ],
  },
  test: {
    // A time limit catches a hang, not slowness: a runner with more workers than cores, or
    // a busy machine, stretches CPU-bound tests several times over (20 s timed out there).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // On a Linux desktop the session bus leads to the contributor's own keyring, where the CLI
    // the tests run would store their keys: the tests see what CI sees, no bus (an empty value
    // counts as none). The keyring tests start a bus and a Secret Service of their own.
    env: { DBUS_SESSION_BUS_ADDRESS: '', XDG_RUNTIME_DIR: '' },
    pool: 'forks',
    // Most test time is spent waiting (on the mock's job timers, spawned bins, tmux screens),
    // not computing, so files run more at once than there are cores: vitest's default
    // (cores - 1) runs one file at a time on a 2-core machine. Capped so a large CI runner
    // does not start dozens of bins at once. `--maxWorkers=N` overrides it.
    maxWorkers: Math.min(8, 2 * availableParallelism()),
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      // The mock's msw handlers promise msw 2 and 3 (its peer range): the installed msw is 3, and
      // this project runs the msw legs of the contract suites again with msw 2 (the `msw2` alias
      // package) in its place. The other legs are skipped here (test-utils/src/msw-legs-only.ts).
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^msw$/, replacement: resolveFromRoot('msw2') },
            { find: /^msw\/node$/, replacement: resolveFromRoot('msw2/node') },
          ],
        },
        test: {
          name: 'msw 2',
          include: mswTests,
          setupFiles: [src('test-utils/src/msw-legs-only.ts')],
        },
      },
    ],
  },
});
