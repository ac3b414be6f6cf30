// Goal 5: `profile-articles --help` ≤ 1.3× `node -e 0`, and `credits --json` against a
// running mock ≤ 1.5× a `node -e` one-liner that makes the same request with fetch; the same
// goal with the key in the system keyring (gnome-keyring on a D-Bus session of its own), which
// the CLI reads through the native addon on each run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKeyring } from './lib/keyring-session.mjs';
import { startServer } from './lib/processes.mjs';
import { compare, publish, row, SMOKE } from './lib/stats.mjs';
import { API_KEY } from './scenarios.mjs';

const bin = fileURLToPath(new URL('../packages/cli/bin/profile-articles.cjs', import.meta.url));
const RUNS = SMOKE ? 3 : 21;

function millis(args, env = {}, input = undefined) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    input,
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
const keyring = await startKeyring();
try {
  const help = pair([[bin, '--help']], [['-e', '0']]);
  const credits = pair([[bin, 'credits', '--json'], env], [['-e', oneLiner], env]);
  const figure = 'credits --json, key in the keyring, vs node -e fetch';
  let inKeyring;
  if (keyring.missing) inKeyring = row({ figure, unit: 'ms', goal: 1.5, problem: keyring.missing });
  else {
    // A profile whose key login put in the keyring; no key in the environment.
    const stored = {
      PROFILE_ARTICLES_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pa-bench-config-')),
      DBUS_SESSION_BUS_ADDRESS: keyring.address,
      PROFILE_ARTICLES_API_KEY: '',
      PROFILE_ARTICLES_BASE_URL: '',
    };
    try {
      millis([bin, 'login', '--base-url', mock.url], stored, API_KEY);
      const measured = pair([[bin, 'credits', '--json'], stored], [['-e', oneLiner], env]);
      inKeyring = row({ figure, ...measured, unit: 'ms', goal: 1.5 });
    } catch (error) {
      // Reported, not thrown: the other rows still count.
      inKeyring = row({ figure, unit: 'ms', goal: 1.5, problem: String(error.message).split('\n')[0] });
    }
  }
  publish('cli-startup', [
    row({ figure: 'profile-articles --help vs node -e 0', ...help, unit: 'ms', goal: 1.3 }),
    row({ figure: 'credits --json vs node -e fetch', ...credits, unit: 'ms', goal: 1.5 }),
    inKeyring,
  ]);
} finally {
  keyring.stop?.();
  mock.stop();
}
