// Servers under test run in their own processes, so the load generator never shares their
// event loop. Each prints its URL as its first stdout line.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('../serve.mjs', import.meta.url));

/** Starts `bench/serve.mjs KIND ...args` and resolves once it printed its URL. */
export const startServer = (kind, ...args) => startServerFrom(SERVE, kind, ...args);

/** startServer with another checkout's serve.mjs (and so its build): an A/B across builds. */
export async function startServerFrom(serve, kind, ...args) {
  const child = spawn(process.execPath, ['--expose-gc', serve, kind, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  pin(child.pid, SERVER_CPU);
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server ${kind} exited with ${code}`)));
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim().split('\n')[0]));
  });
  return { kind, url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

// On a machine of few cores the server and the load generators would take CPU from each
// other; each gets its own (the last core for servers, the others for generators), so a
// server can be the bottleneck while a generator is not. taskset is util-linux's.
const CORES = availableParallelism();
const SERVER_CPU = String(CORES - 1);
export const GENERATOR_CPUS = CORES > 1 ? `0-${CORES - 2}` : '0';
export const GENERATOR_CORE_COUNT = Math.max(1, CORES - 1);

/** Binds process `pid` (all its threads) to `cpus`; leaves it where it is without taskset. */
export function pin(pid, cpus) {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  } catch {}
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Measures how busy a process was (1 = one full core) while `work` ran. */
export async function withCpu(pid, work) {
  const startedCpu = cpuSeconds(pid);
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { result, cores: (cpuSeconds(pid) - startedCpu) / seconds };
}
