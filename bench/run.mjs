// pnpm bench: every benchmark in turn (after `pnpm build`), each printing rows of
// figure, baseline, ratio and goal; the full run writes bench/results/latest.json.
// `pnpm bench:smoke` (BENCH_SMOKE=1, in CI) runs each for a few seconds and asserts no goal.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BENCHES = [
  'sdk-size',
  'cli-startup',
  'mock-startup',
  'sdk-overhead',
  'mock-throughput',
  'mock-scale',
  'mock-memory',
  'mock-data',
];
if (process.env.BENCH_SMOKE !== '1')
  rmSync(new URL('./results/latest.json', import.meta.url), { force: true });
let crashed = 0;
for (const name of BENCHES) {
  console.log(`\n# ${name}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))], {
    stdio: 'inherit',
  });
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (result.status !== 0) crashed++;
}
// Goals are reported, not asserted: a benchmark fails only when it could not run.
process.exitCode = crashed ? 1 : 0;
