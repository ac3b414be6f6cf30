// Goal 5: `profile-articles --help` ≤ 1.3× `node -e 0`, and `credits --json` against a
// running mock ≤ 1.5× a `node -e` one-liner that makes the same request with fetch.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/processes.mjs';
import { compare, publish, row, SMOKE } from './lib/stats.mjs';
import { API_KEY } from './scenarios.mjs';

const bin = fileURLToPath(new URL('../packages/cli/bin/profile-articles.cjs', import.meta.url));
const RUNS = SMOKE ? 3 : 21;

function millis(args, env = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}
/** Alternating runs, so drift on the machine hits both sides alike. */
function pair(a, b) {
  const as = [];
  const bs = [];
  millis(...a);
  millis(...b);
  for (let i = 0; i < RUNS; i++) {
    as.push(millis(...a));
    bs.push(millis(...b));
  }
  return compare(as, bs);
}

const mock = await startServer('mock');
const env = {
  PROFILE_ARTICLES_API_KEY: API_KEY,
  PROFILE_ARTICLES_BASE_URL: mock.url,
  PROFILE_ARTICLES_CONFIG_DIR: '/nonexistent-bench',
};
const oneLiner = `fetch(process.env.PROFILE_ARTICLES_BASE_URL+'/api/v1/credits',{headers:{authorization:'Bearer '+process.env.PROFILE_ARTICLES_API_KEY}}).then(r=>r.json()).then(j=>console.log(JSON.stringify(j)))`;
try {
  const help = pair([[bin, '--help']], [['-e', '0']]);
  const credits = pair([[bin, 'credits', '--json'], env], [['-e', oneLiner], env]);
  publish('cli-startup', [
    row({ figure: 'profile-articles --help vs node -e 0', ...help, unit: 'ms', goal: 1.3 }),
    row({ figure: 'credits --json vs node -e fetch', ...credits, unit: 'ms', goal: 1.5 }),
  ]);
} finally {
  mock.stop();
}
