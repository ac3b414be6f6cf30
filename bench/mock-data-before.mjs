// Issue 31's keep for --data: a new paid generate costs within 5% of what it cost in the build
// before the issue (which did not check write counts, nor undo a failed append). Both builds
// run in this process, in alternating rounds on fresh folders; each row's ratio is the median
// of the rounds' ratios (a slow spell of the machine weighs on both sides of a round).
//
// The work is the service's own front door (`service.handle`), called in process: there is no
// load generator between the two, so no generator can be the bottleneck; what is timed is the
// request's rules, its journal line and the wait for its disk flush.
//
// Needs the other build, so it is not part of `pnpm bench`:
//   git worktree add /tmp/before-31 ef40be5
//   (cd /tmp/before-31 && pnpm install --offline && pnpm --filter '@profile-articles/mock-server...' build)
//   pnpm exec node bench/mock-data-before.mjs /tmp/before-31
// Each row reads: now vs before.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newDataFolder } from './lib/scratch.mjs';
import { compare, publish, row, SMOKE } from './lib/stats.mjs';
import { BENCH_CONFIG, fill, fillTogether } from './scenarios.mjs';

const before = process.argv[2];
const beforeEntry = before && resolve(before, 'packages/mock-server/dist/index.js');
if (!beforeEntry || !existsSync(beforeEntry)) {
  console.error('Usage: node bench/mock-data-before.mjs DIR, where DIR is a checkout with a built mock');
  process.exit(2);
}
const builds = {
  before: await import(pathToFileURL(beforeEntry).href),
  now: await import('../packages/mock-server/dist/index.js'),
};
const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_ROUNDS ?? 9);
const COUNT = SMOKE ? 100 : 1_000;

/** Microseconds per new paid generate with --data, one at a time or 100 at a time. */
async function measure(build, together) {
  const server = await build.startMockServer({
    port: 0,
    config: { ...BENCH_CONFIG, dataDir: newDataFolder() },
  });
  try {
    const started = process.hrtime.bigint();
    if (together) await fillTogether(server.service, COUNT, 100, 'together');
    else await fill(server.service, COUNT, 'alone');
    return Number(process.hrtime.bigint() - started) / 1e3 / COUNT;
  } finally {
    await server.close();
  }
}

const rows = [];
for (const [name, together] of [
  ['one at a time', false],
  ['100 at a time', true],
]) {
  const now = [];
  const old = [];
  await measure(builds.now, together); // warm both builds' code before timing either
  await measure(builds.before, together);
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which build goes first, so neither always runs on a warmer disk cache.
    if (i % 2) {
      old.push(await measure(builds.before, together));
      now.push(await measure(builds.now, together));
    } else {
      now.push(await measure(builds.now, together));
      old.push(await measure(builds.before, together));
    }
  }
  const figures = compare(now, old);
  console.log(
    `new paid generate, ${name}: before ${figures.baseline.toFixed(0)} µs, now ${figures.measured.toFixed(0)} µs; ` +
      `rounds ${now.map((n, i) => (n / old[i]).toFixed(2)).join(' ')}`,
  );
  rows.push(
    row({
      figure: `new paid generate --data, ${name}, now vs before 31`,
      ...figures,
      unit: 'µs',
      goal: 1.05,
    }),
  );
}
publish('mock-data-before', rows);
