// Issue 27's hot-path keep: with nobody watching the dashboard and no --log, the mock's server
// CPU per request on the three benched endpoints stays within 5% of the build before the issue.
// Both builds serve in alternating pairs of runs (lib/load.mjs, with its generator check); the
// ratio is the median of the pairs' ratios of server CPU per answered request.
//
// Needs the other build, so it is not part of `pnpm bench`:
//   git worktree add /tmp/before-27 6219ba4
//   (cd /tmp/before-27 && pnpm install --offline && pnpm --filter '@profile-articles/mock-server...' build)
//   pnpm exec node bench/mock-hot-path.mjs /tmp/before-27
// Each row reads: now vs before. The last rows (issue 33) serve the same requests with 100
// outcome stubs registered that match none of them, against the build before without any
// (it has no stubs): their goal is 10%.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { alternatePairs } from './lib/load.mjs';
import { startServer, startServerFrom } from './lib/processes.mjs';
import { compare, median, publish, row, SMOKE } from './lib/stats.mjs';
import { SCENARIOS } from './scenarios.mjs';

const before = process.argv[2];
const serveBefore = before && resolve(before, 'bench/serve.mjs');
if (!serveBefore || !existsSync(resolve(before, 'packages/mock-server/dist/index.js'))) {
  console.error(
    'Usage: node bench/mock-hot-path.mjs DIR, where DIR is a checkout with a built mock (see the top of this file)',
  );
  process.exit(2);
}
const PAIRS = SMOKE ? 1 : Number(process.env.BENCH_PAIRS ?? 7);
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_SECONDS ?? 3);
const rows = [];
const STUBS = 100;
const runs = [
  ...SCENARIOS.map((scenario) => ({
    scenario,
    name: scenario.name,
    figure: `server CPU/request, now vs before issue 27, ${scenario.name}`,
    now: ['mock'],
    goal: 1.05,
  })),
  ...SCENARIOS.map((scenario) => ({
    scenario,
    name: `${scenario.name}, ${STUBS} stubs that match nothing`,
    figure: `server CPU/request, now with ${STUBS} stubs that match nothing vs before, ${scenario.name}`,
    now: ['mock-stubs', String(STUBS)],
    goal: 1.1,
  })),
];
for (const { scenario, name, figure, now: serve, goal } of runs) {
  // Fresh servers for each endpoint, so one scenario's garbage does not weigh on the next.
  const old = await startServerFrom(serveBefore, 'mock');
  const now = await startServer(...serve);
  try {
    const pairs = await alternatePairs(old, now, scenario, { pairs: PAIRS, seconds: SECONDS });
    const perRequest = (runs) => runs.map((r) => r.serverMicrosPerRequest);
    const figures = compare(perRequest(pairs.measured), perRequest(pairs.baseline));
    console.log(
      `${name}: server CPU per request before ${figures.baseline.toFixed(1)} µs, now ${figures.measured.toFixed(1)} µs; ` +
        `pairs ${pairs.measured.map((r, i) => (r.serverMicrosPerRequest / pairs.baseline[i].serverMicrosPerRequest).toFixed(2)).join(' ')}; ` +
        `rps before ${median(pairs.baseline.map((r) => r.rps)).toFixed(0)}, now ${median(pairs.measured.map((r) => r.rps)).toFixed(0)}`,
    );
    rows.push(
      row({
        figure,
        ...figures,
        unit: 'µs',
        goal,
        problem: pairs.problem,
      }),
    );
  } finally {
    old.stop();
    now.stop();
  }
}
publish('mock-hot-path', rows);
