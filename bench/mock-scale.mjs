// Goal 3 (time): request time stays flat from 1,000 to 100,000 stored articles and jobs:
// the ratio of p50 latencies under the same load is under 1.2, on a read and a replay.
import { alternatePairs } from './lib/load.mjs';
import { startServer } from './lib/processes.mjs';
import { compare, median, publish, row, SMOKE } from './lib/stats.mjs';
import { SCENARIOS } from './scenarios.mjs';

const LARGE = SMOKE ? 5_000 : 100_000;
const PAIRS = SMOKE ? 1 : 3;
const SECONDS = SMOKE ? 1 : 3;
const small = await startServer('mock', '1000');
const large = await startServer('mock', String(LARGE));
const rows = [];
try {
  for (const scenario of SCENARIOS.slice(1)) {
    const pairs = await alternatePairs(small, large, scenario, { pairs: PAIRS, seconds: SECONDS });
    const runs = { small: pairs.baseline, large: pairs.measured };
    const { problem, shape } = pairs;
    console.log(
      `${scenario.name} (${shape.generators} generator${shape.generators > 1 ? 's' : ''}, pipelining ${shape.pipelining}): ` +
        `p50 ${LARGE} stored ${median(runs.large.map((r) => r.p50))} ms, 1,000 stored ${median(runs.small.map((r) => r.p50))} ms`,
    );
    rows.push(
      row({
        figure: `p50 with ${LARGE} stored vs 1,000, ${scenario.name}`,
        ...compare(
          runs.large.map((r) => r.p50),
          runs.small.map((r) => r.p50),
        ),
        unit: 'ms',
        goal: 1.2,
        problem,
      }),
    );
  }
} finally {
  small.stop();
  large.stop();
}
publish('mock-scale', rows);
