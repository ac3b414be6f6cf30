// --data (issue 27): what keeping the state on disk costs.
// - a replayed generate (nothing to write) at ≥ 0.5× the in-memory mock's requests/s, measured
//   as mock-throughput measures, in alternating pairs, with its generator check;
// - a new paid generate's cost, reported: one at a time each waits for its own disk flush,
//   100 at a time they share them (group commit);
// - start-up on an empty folder within 1.2× of a start without --data (until the URL is printed,
//   as mock-startup measures, and until the first answer);
// - start-up over a folder of 100,000 stored articles (with their jobs and keys): under 3 s
//   until the first answer. Not part of `pnpm test`.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternatePairs } from './lib/load.mjs';
import { startServer } from './lib/processes.mjs';
import { newDataFolder, scratchFolder } from './lib/scratch.mjs';
import { compare, median, publish, row, SMOKE } from './lib/stats.mjs';
import { API_KEY, BENCH_CONFIG, fill, fillTogether, SCENARIOS } from './scenarios.mjs';

const { createMockService, startMockServer } = await import('../packages/mock-server/dist/index.js');
const bin = fileURLToPath(new URL('../packages/mock-server/dist/bin.js', import.meta.url));
const STORED = SMOKE ? 5_000 : 100_000;
const RUNS = SMOKE ? 3 : 11;
const rows = [];

// 1. A replayed generate, in memory and with --data.
{
  const memory = await startServer('mock');
  const data = await startServer('mock-data');
  try {
    const scenario = SCENARIOS[2];
    const pairs = await alternatePairs(memory, data, scenario, {
      pairs: SMOKE ? 1 : 3,
      seconds: SMOKE ? 1 : 3,
    });
    console.log(
      `${scenario.name}: ${median(pairs.baseline.map((r) => r.rps)).toFixed(0)} req/s in memory, ` +
        `${median(pairs.measured.map((r) => r.rps)).toFixed(0)} with --data`,
    );
    rows.push(
      row({
        figure: `--data rps vs memory, ${scenario.name}`,
        ...compare(
          pairs.measured.map((r) => r.rps),
          pairs.baseline.map((r) => r.rps),
        ),
        unit: 'req/s',
        goal: 0.5,
        better: 'higher',
        problem: pairs.problem,
      }),
    );
  } finally {
    memory.stop();
    data.stop();
  }
}

// 2. A new paid generate: wall time per generate, in process, in memory and with --data.
{
  const COUNT = SMOKE ? 200 : 2_000;
  const timed = async (work) => {
    const started = process.hrtime.bigint();
    await work();
    return Number(process.hrtime.bigint() - started) / 1e3 / COUNT;
  };
  const memory = createMockService(BENCH_CONFIG);
  const inMemory = await timed(() => fill(memory, COUNT, 'memory'));
  const server = await startMockServer({ port: 0, config: { ...BENCH_CONFIG, dataDir: newDataFolder() } });
  const oneAtATime = await timed(() => fill(server.service, COUNT, 'alone'));
  const together = await timed(() => fillTogether(server.service, COUNT, 100, 'together'));
  await server.close();
  console.log(
    `new paid generate: ${inMemory.toFixed(0)} µs in memory; with --data ${oneAtATime.toFixed(0)} µs one at a time ` +
      `(a disk flush each), ${together.toFixed(0)} µs each 100 at a time (group commit)`,
  );
  rows.push(
    row({
      figure: 'new paid generate, --data one at a time vs memory',
      measured: oneAtATime,
      baseline: inMemory,
      unit: 'µs',
      goal: null,
    }),
    row({
      figure: 'new paid generate, --data 100 at a time vs memory',
      measured: together,
      baseline: inMemory,
      unit: 'µs',
      goal: null,
    }),
  );
}

/** Milliseconds from spawn until stdout names a URL, and until the first answer from it. */
function start(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, '--port', '0', '--no-log', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let asked = false;
    child.stdout.on('data', async (chunk) => {
      out += chunk;
      const url = /http:\/\/\S+:\d+/.exec(out)?.[0];
      if (!url || asked) return;
      asked = true;
      const printed = Number(process.hrtime.bigint() - started) / 1e6;
      const answer = await fetch(`${url}/api/v1/credits`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      });
      const answered = Number(process.hrtime.bigint() - started) / 1e6;
      child.once('exit', () => resolve({ printed, answered, status: answer.status }));
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (!asked) reject(new Error(`exited ${code} before printing a URL`));
    });
  });
}

// 3. Start-up on an empty folder against none, alternating.
{
  const configDir = scratchFolder('bench-config-');
  const config = join(configDir, 'config.json');
  writeFileSync(config, JSON.stringify(BENCH_CONFIG));
  const none = [];
  const empty = [];
  await start(['--config', config]);
  for (let i = 0; i < RUNS; i++) {
    none.push(await start(['--config', config]));
    const folder = newDataFolder();
    empty.push(await start(['--config', config, '--data', folder]));
    rmSync(folder, { recursive: true, force: true });
  }
  for (const [what, key] of [
    ['URL printed', 'printed'],
    ['first answer', 'answered'],
  ]) {
    rows.push(
      row({
        figure: `start, --data empty folder vs none, ${what}`,
        ...compare(
          empty.map((r) => r[key]),
          none.map((r) => r[key]),
        ),
        unit: 'ms',
        goal: 1.2,
      }),
    );
  }

  // 4. Start-up over a folder holding STORED articles, their jobs and keys (a snapshot, as a
  // stopped mock leaves it, and a journal of the requests since, as a killed one does).
  const folder = newDataFolder();
  const server = await startMockServer({ port: 0, config: { ...BENCH_CONFIG, dataDir: folder } });
  await fillTogether(server.service, STORED, 100);
  await server.close();
  const again = await startMockServer({ port: 0, config: { ...BENCH_CONFIG, dataDir: folder } });
  await fillTogether(again.service, SMOKE ? 500 : 10_000, 100, 'since');
  await again.close();
  const stored = [];
  for (let i = 0; i < (SMOKE ? 1 : 5); i++) {
    const run = await start(['--config', config, '--data', folder]);
    if (run.status !== 200) throw new Error(`the mock over ${STORED} articles answered ${run.status}`);
    stored.push(run.answered);
  }
  console.log(`start over ${STORED} stored articles: ${median(stored).toFixed(0)} ms to the first answer`);
  rows.push(
    row({
      figure: `start with ${STORED} stored articles, first answer, vs 3 s`,
      measured: median(stored),
      baseline: 3000,
      unit: 'ms',
      goal: 1,
    }),
  );
}
publish('mock-data', rows);
