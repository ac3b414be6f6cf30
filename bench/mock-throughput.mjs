// Goal 1: the mock at ≥ 0.8× a bare node:http server (answering the mock's own bodies) in
// requests/s, with p99 ≤ 1.5× the bare server's, at 50 connections, on each scenario.
// Bare and mock are measured in alternating pairs; the ratio is the median of the pairs' ratios.
import { alternatePairs } from './lib/load.mjs';
import { startServer } from './lib/processes.mjs';
import { compare, median, publish, row, SMOKE } from './lib/stats.mjs';
import { SCENARIOS } from './scenarios.mjs';

const PAIRS = SMOKE ? 1 : 3;
const SECONDS = SMOKE ? 1 : 3;
const bare = await startServer('bare');
const mock = await startServer('mock');
const rows = [];
try {
  for (const scenario of SCENARIOS) {
    const pairs = await alternatePairs(bare, mock, scenario, { pairs: PAIRS, seconds: SECONDS });
    const runs = { bare: pairs.baseline, mock: pairs.measured };
    const { problem } = pairs;
    const cpu = (list) => median(list.map((r) => r.serverCores * 100)).toFixed(0);
    const generator = Math.max(...[...runs.bare, ...runs.mock].map((r) => r.generatorCores));
    const perRequest = (list) => median(list.map((r) => r.serverMicrosPerRequest));
    const { shape } = pairs;
    console.log(
      `${scenario.name} (${shape.generators} generator${shape.generators > 1 ? 's' : ''}, pipelining ${shape.pipelining}): server CPU bare ${cpu(runs.bare)}%, mock ${cpu(runs.mock)}%; busiest generator ≤ ${(generator * 100).toFixed(0)}%; ` +
        `server CPU per request bare ${perRequest(runs.bare).toFixed(1)} µs, mock ${perRequest(runs.mock).toFixed(1)} µs (bare/mock ${(perRequest(runs.bare) / perRequest(runs.mock)).toFixed(2)})`,
    );
    rows.push(
      row({
        figure: `mock rps, ${scenario.name}`,
        ...compare(
          runs.mock.map((r) => r.rps),
          runs.bare.map((r) => r.rps),
        ),
        unit: 'req/s',
        goal: 0.8,
        better: 'higher',
        problem,
      }),
      row({
        figure: `mock p99, ${scenario.name}`,
        ...compare(
          runs.mock.map((r) => r.p99),
          runs.bare.map((r) => r.p99),
        ),
        unit: 'ms',
        goal: 1.5,
        problem,
      }),
    );
  }
} finally {
  bare.stop();
  mock.stop();
}
publish('mock-throughput', rows);
