// Goals 2 and 3 (memory): heap after GC per generated article, with its job and idempotency
// record, under 2 KB over 100,000 generations in process; and flat from 1,000 to 100,000.
// Issue 27: the same under --data (generated 100 at a time, sharing their disk flushes), and
// through msw (fetch in process, answered by the mock's msw handlers).
// Runs itself again with --expose-gc so that every figure is taken after a full collection.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { newDataFolder } from './lib/scratch.mjs';
import { publish, row, SMOKE } from './lib/stats.mjs';

const SMALL = 1_000;
const LARGE = SMOKE ? 5_000 : 100_000;
const THROUGH_MSW = SMOKE ? 1_000 : 20_000;

/**
 * msw's node interceptor over the mock's handlers: returns `generate(count, prefix)`, which sends
 * each generate with fetch, one at a time, as a test suite using msw would. `msw2` runs the same
 * handlers under msw 2 (the workspace's `msw2` alias, put in place of `msw` by a resolve hook);
 * `msw-trivial` is msw 3 with a handler that answers 202 at once, to show what msw itself keeps.
 */
async function throughMsw(service, mode) {
  if (mode === 'msw2') {
    const { registerHooks } = await import('node:module');
    registerHooks({
      resolve: (specifier, context, next) =>
        next(
          specifier === 'msw' || specifier === 'msw/node' ? specifier.replace('msw', 'msw2') : specifier,
          context,
        ),
    });
  }
  const { setupServer } = await import('msw/node');
  const { http, HttpResponse } = await import('msw');
  const { createHandlers } = await import('../packages/mock-server/dist/msw.js');
  const { generateSpec } = await import('./scenarios.mjs');
  const baseUrl = 'http://api.test';
  const handlers =
    mode === 'msw-trivial'
      ? [http.all(`${baseUrl}/*`, () => HttpResponse.json({}, { status: 202 }))]
      : createHandlers(service, { baseUrl });
  // Each msw ignores the other's name for the option.
  setupServer(...handlers).listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' });
  return async (count, prefix) => {
    for (let i = 0; i < count; i++) {
      const { path, ...init } = generateSpec(prefix, i);
      const response = await fetch(baseUrl + path, init);
      if (response.status !== 202) throw new Error(`msw: generate ${i} answered ${response.status}`);
      await response.arrayBuffer();
    }
    service.advanceClock(1000);
  };
}

if (process.argv[2] === 'measure') {
  const { createMockService, startMockServer } = await import('../packages/mock-server/dist/index.js');
  const { BENCH_CONFIG, fill, fillTogether, settleHeap } = await import('./scenarios.mjs');
  const count = Number(process.argv[3]);
  const mode = process.argv[4];
  const withData = mode === 'data';
  const heap = async () => {
    await settleHeap();
    return process.memoryUsage().heapUsed;
  };
  const server = withData
    ? await startMockServer({
        port: 0,
        config: { ...BENCH_CONFIG, dataDir: newDataFolder('bench-memory-') },
      })
    : undefined;
  const service = server?.service ?? createMockService(BENCH_CONFIG);
  const generate = mode?.startsWith('msw') ? await throughMsw(service, mode) : undefined;
  const fillWith = (n, prefix) =>
    generate
      ? generate(n, prefix)
      : withData
        ? fillTogether(service, n, 100, prefix)
        : fill(service, n, prefix);
  await fillWith(10, 'warm'); // load every code path before the baseline
  const before = await heap();
  await fillWith(count, 'profile');
  const after = await heap();
  // Keep the service alive until after the measurement.
  if (service.state() === null) console.log('unreachable');
  process.stdout.write(JSON.stringify({ perArticle: (after - before) / count }));
  await server?.close();
} else {
  const measure = (count, mode = 'memory') => {
    const self = fileURLToPath(import.meta.url);
    const result = spawnSync(process.execPath, ['--expose-gc', self, 'measure', String(count), mode], {
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout).perArticle;
  };
  const small = measure(SMALL);
  const large = measure(LARGE);
  const data = measure(LARGE, 'data');
  // msw 3.0.5's node interceptor keeps about 28 KB of its own per POST sent with fetch (a mock
  // socket each, whatever the handler; a GET keeps nothing), so 100,000 through it would hold
  // 2.8 GB: the msw rows send THROUGH_MSW, and msw 3's row is read less what msw 3 keeps with a
  // handler that answers at once (docs/performance.md).
  const msw2 = measure(THROUGH_MSW, 'msw2');
  const msw3 = measure(THROUGH_MSW, 'msw');
  const msw3Alone = measure(THROUGH_MSW, 'msw-trivial');
  console.log(
    `heap after GC per article: ${small.toFixed(0)} B at ${SMALL}, ${large.toFixed(0)} B at ${LARGE}, ${data.toFixed(0)} B at ${LARGE} with --data; ` +
      `at ${THROUGH_MSW} through msw 2 ${msw2.toFixed(0)} B, through msw 3 ${msw3.toFixed(0)} B, of which msw 3 itself keeps ${msw3Alone.toFixed(0)} B per request`,
  );
  publish('mock-memory', [
    row({
      figure: `heap per article at ${LARGE} vs 2 KB`,
      measured: large,
      baseline: 2048,
      unit: 'B',
      goal: 1,
    }),
    row({
      figure: `heap per article at ${LARGE} with --data vs 2 KB`,
      measured: data,
      baseline: 2048,
      unit: 'B',
      goal: 1,
    }),
    row({
      figure: `heap per article at ${THROUGH_MSW} through msw 2 vs 2 KB`,
      measured: msw2,
      baseline: 2048,
      unit: 'B',
      goal: 1,
    }),
    row({
      figure: `heap per article at ${THROUGH_MSW} through msw 3, less msw's own, vs 2 KB`,
      measured: msw3 - msw3Alone,
      baseline: 2048,
      unit: 'B',
      goal: 1,
    }),
    row({
      figure: `heap per article at ${LARGE} vs at ${SMALL}`,
      measured: large,
      baseline: small,
      unit: 'B',
      goal: 1.2,
    }),
  ]);
}
