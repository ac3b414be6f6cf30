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
