// Goals 2 and 3 (memory): heap after GC per generated article, with its job and idempotency
// record, under 2 KB over 100,000 generations in process; and flat from 1,000 to 100,000.
// Issue 27: the same under --data (generated 100 at a time, sharing their disk flushes).
// Runs itself again with --expose-gc so that every figure is taken after a full collection.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { publish, row, SMOKE } from './lib/stats.mjs';

const SMALL = 1_000;
const LARGE = SMOKE ? 5_000 : 100_000;

if (process.argv[2] === 'measure') {
  const { createMockService, startMockServer } = await import('../packages/mock-server/dist/index.js');
  const { BENCH_CONFIG, fill, fillTogether, settleHeap } = await import('./scenarios.mjs');
  const count = Number(process.argv[3]);
  const withData = process.argv[4] === 'data';
  const heap = async () => {
    await settleHeap();
    return process.memoryUsage().heapUsed;
  };
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const server = withData
    ? await startMockServer({
        port: 0,
        config: { ...BENCH_CONFIG, dataDir: join(mkdtempSync(join(tmpdir(), 'bench-memory-')), 'data') },
      })
    : undefined;
  const service = server?.service ?? createMockService(BENCH_CONFIG);
  await fill(service, 10, 'warm'); // load every code path before the baseline
  const before = await heap();
  await (withData ? fillTogether(service, count) : fill(service, count));
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
  console.log(
    `heap after GC per article: ${small.toFixed(0)} B at ${SMALL}, ${large.toFixed(0)} B at ${LARGE}, ${data.toFixed(0)} B at ${LARGE} with --data`,
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
      figure: `heap per article at ${LARGE} vs at ${SMALL}`,
      measured: large,
      baseline: small,
      unit: 'B',
      goal: 1.2,
    }),
  ]);
}
