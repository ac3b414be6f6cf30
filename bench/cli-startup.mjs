// `profile-articles --help` against `node -e 0`: goal ≤ 1.5× the start-up time.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const bin = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
function time(args, n = 15) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, args, { stdio: 'ignore' });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(n / 2)];
}
time(['-e', '0'], 3);
const baseline = time(['-e', '0']);
const help = time([bin, '--help']);
console.log(`node -e 0 ${baseline.toFixed(1)} ms, profile-articles --help ${help.toFixed(1)} ms (medians)`);
process.exitCode = report('CLI start-up vs node -e 0', help, baseline, 1.5, false) ? 0 : 1;
