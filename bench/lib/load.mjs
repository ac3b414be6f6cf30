// The load generator: autocannon, run in a child process of its own so that its CPU can be
// sampled apart from the bench driver's. A figure only counts when the server was the
// bottleneck: the server busy on at least 90% of a core, the generator below 90%.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from './processes.mjs';

const WORKER = fileURLToPath(new URL('./load-worker.mjs', import.meta.url));
export const SERVER_BUSY = 0.9;
export const GENERATOR_FREE = 0.9;

/**
 * One timed run against `target` ({url, method, headers, body}) with autocannon.
 * Returns requests/s, p99 latency (ms), errors and non-2xx counts, and the CPU share
 * (in cores) of the server and of the generator over the run.
 */
export async function load(server, target, { connections = 50, seconds = 5 } = {}) {
  const worker = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve) => worker.once('message', resolve)); // ready
  const serverCpu = cpuSeconds(server.pid);
  const workerCpu = cpuSeconds(worker.pid);
  const started = process.hrtime.bigint();
  worker.send({ ...target, url: server.url + target.path, connections, duration: seconds });
  const stats = await new Promise((resolve) => worker.once('message', resolve));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const result = {
    ...stats,
    serverCores: (cpuSeconds(server.pid) - serverCpu) / elapsed,
    generatorCores: (cpuSeconds(worker.pid) - workerCpu) / elapsed,
  };
  worker.kill();
  return result;
}

/** Why a run cannot be trusted as a measure of the server, or null when it can. */
export function bottleneckProblem(run) {
  if (run.errors > 0) return `${run.errors} socket errors`;
  if (run.generatorCores >= GENERATOR_FREE)
    return `load generator at ${(run.generatorCores * 100).toFixed(0)}% of a core`;
  if (run.serverCores < SERVER_BUSY)
    return `server only ${(run.serverCores * 100).toFixed(0)}% busy (not the bottleneck)`;
  return null;
}

/**
 * Warms both servers up, then loads `baseline` and `measured` in alternating pairs, so drift
 * on the machine hits both alike. Returns each side's runs and the first reason, if any, why
 * the pairs cannot be trusted (see bottleneckProblem); a non-2xx answer is a broken benchmark.
 */
export async function alternatePairs(baseline, measured, scenario, { pairs, seconds }) {
  await load(baseline, scenario, { seconds: 1 });
  await load(measured, scenario, { seconds: 1 });
  const runs = { baseline: [], measured: [] };
  for (let pair = 0; pair < pairs; pair++) {
    runs.baseline.push(await load(baseline, scenario, { seconds }));
    runs.measured.push(await load(measured, scenario, { seconds }));
  }
  const all = [...runs.baseline, ...runs.measured];
  for (const run of all) if (run.non2xx) throw new Error(`${scenario.name}: ${run.non2xx} non-2xx answers`);
  return { ...runs, problem: all.map(bottleneckProblem).find(Boolean) ?? null };
}
