// The load generator: autocannon, run in one or more child processes of their own (the
// connections split among them) so that their CPU can be sampled apart from the bench
// driver's and from each other's. A figure only counts when the server was the bottleneck:
// the server busy on at least 90% of a core, every generator below 90%.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, GENERATOR_CORE_COUNT, GENERATOR_CPUS, pin } from './processes.mjs';
import { SMOKE } from './stats.mjs';

const WORKER = fileURLToPath(new URL('./load-worker.mjs', import.meta.url));
export const SERVER_BUSY = 0.9;
export const GENERATOR_FREE = 0.9;
// The load shapes tried, in order, until one makes the server the bottleneck: every shape
// keeps the 50 connections. One autocannon process costs about as much CPU per request as a
// bare node:http server answering it, and on a 2-core machine the generators share the one
// core the server does not use, so no single shape fits every scenario and machine state:
// against a bare server answering 45,000 requests/s one generator saturates first, and two
// share the one core left to generators (lib/processes.mjs pins them), so they saturate together. Pipelining (HTTP/1.1)
// cuts a generator's cost per request (one write carries several) while the server still
// parses and answers each request on its own. Bare and mock always get the same shape.
// BENCH_GENERATORS and BENCH_PIPELINING pin one shape instead.
const SHAPES =
  process.env.BENCH_GENERATORS || process.env.BENCH_PIPELINING
    ? [
        {
          generators: Number(process.env.BENCH_GENERATORS ?? 2),
          pipelining: Number(process.env.BENCH_PIPELINING ?? 2),
        },
      ]
    : [
        { generators: 2, pipelining: 2 },
        { generators: 1, pipelining: 4 },
        { generators: 1, pipelining: 8 },
      ];

const message = (child) => new Promise((resolve) => child.once('message', resolve));

/** `connections` split as evenly as possible among `count` generators. */
const shares = (connections, count) =>
  Array.from(
    { length: count },
    (_, i) => Math.floor(connections / count) + (i < connections % count ? 1 : 0),
  );

/** The latency (ms) below which `fraction` of the responses fell, from merged 0.1 ms buckets. */
function percentile(buckets, total, fraction) {
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen >= fraction * total) return bucket / 10;
  }
  return Number.NaN;
}

/**
 * One timed run against `target` ({path, method, headers, body}) with autocannon. Returns
 * requests/s (2xx only), p50 and p99 latency (ms) over every generator's responses, errors
 * and non-2xx counts, and the CPU share (in cores) of the server and of each generator.
 */
export async function load(server, target, { connections = 50, seconds = 5, shape = SHAPES[0] } = {}) {
  const split = shares(connections, Math.min(shape.generators, connections));
  const workers = split.map(() => fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  try {
    await Promise.all(workers.map(message)); // ready
    for (const worker of workers) pin(worker.pid, GENERATOR_CPUS);
    const serverCpu = cpuSeconds(server.pid);
    const workerCpu = workers.map((worker) => cpuSeconds(worker.pid));
    const started = process.hrtime.bigint();
    const done = workers.map(message);
    workers.forEach((worker, i) => {
      worker.send({
        ...target,
        url: server.url + target.path,
        connections: split[i],
        pipelining: shape.pipelining,
        duration: seconds,
      });
    });
    const stats = await Promise.all(done);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    const serverSeconds = cpuSeconds(server.pid) - serverCpu;
    const merged = new Map();
    for (const { buckets } of stats)
      for (const [bucket, count] of buckets) merged.set(bucket, (merged.get(bucket) ?? 0) + count);
    const sorted = [...merged].sort((a, b) => a[0] - b[0]);
    const ok = stats.reduce((sum, s) => sum + s.ok, 0);
    const generatorsCores = workers.map((worker, i) => (cpuSeconds(worker.pid) - workerCpu[i]) / elapsed);
    return {
      rps: ok / seconds,
      p50: percentile(sorted, ok, 0.5),
      p99: percentile(sorted, ok, 0.99),
      errors: stats.reduce((sum, s) => sum + s.errors, 0),
      non2xx: stats.reduce((sum, s) => sum + s.non2xx, 0),
      serverCores: serverSeconds / elapsed,
      // The server's CPU per answer: unlike requests/s it barely moves when other processes
      // take the machine, so it shows a trend even in a run the bottleneck check refuses.
      serverMicrosPerRequest: (serverSeconds * 1e6) / Math.max(1, ok),
      generatorsCores,
      /** The busiest generator: the one that would have saturated first. */
      generatorCores: Math.max(...generatorsCores),
    };
  } finally {
    for (const worker of workers) worker.kill();
  }
}

/** Why a run cannot be trusted as a measure of the server, or null when it can. */
export function bottleneckProblem(run) {
  if (run.errors > 0) return `${run.errors} socket errors`;
  if (run.generatorCores >= GENERATOR_FREE)
    return `a load generator at ${(run.generatorCores * 100).toFixed(0)}% of a core`;
  // Generators pinned to the same cores saturate together: two at 48% on one core are one at 96%.
  const together = run.generatorsCores.reduce((sum, cores) => sum + cores, 0);
  if (together >= GENERATOR_FREE * GENERATOR_CORE_COUNT)
    return `the load generators together at ${(together * 100).toFixed(0)}% of the ${GENERATOR_CORE_COUNT} core${GENERATOR_CORE_COUNT > 1 ? 's' : ''} they run on`;
  if (run.serverCores < SERVER_BUSY)
    return `server only ${(run.serverCores * 100).toFixed(0)}% busy (not the bottleneck)`;
  return null;
}

/**
 * Finds the first load shape (SHAPES) under which both servers are the bottleneck, by a short
 * probe of each, then loads `baseline` and `measured` in alternating pairs under it, so drift
 * on the machine hits both alike. Returns each side's runs, the shape, and the first reason,
 * if any, why the pairs cannot be trusted (see bottleneckProblem); a non-2xx answer is a
 * broken benchmark. The smoke run (CI) only proves the benchmark still runs: no probe, no
 * warm-up.
 */
export async function alternatePairs(baseline, measured, scenario, { pairs, seconds }) {
  let shape = SHAPES[0];
  if (!SMOKE) {
    for (const candidate of SHAPES) {
      shape = candidate;
      const probes = [
        await load(baseline, scenario, { seconds: 1, shape }),
        await load(measured, scenario, { seconds: 1, shape }),
      ];
      if (!probes.some(bottleneckProblem)) break;
    }
  }
  const runs = { baseline: [], measured: [] };
  for (let pair = 0; pair < pairs; pair++) {
    runs.baseline.push(await load(baseline, scenario, { seconds, shape }));
    runs.measured.push(await load(measured, scenario, { seconds, shape }));
  }
  const all = [...runs.baseline, ...runs.measured];
  for (const run of all) if (run.non2xx) throw new Error(`${scenario.name}: ${run.non2xx} non-2xx answers`);
  return { ...runs, shape, problem: all.map(bottleneckProblem).find(Boolean) ?? null };
}
