// Soak: mixed traffic at 100 connections for 60 s (SOAK_SECONDS) against the built mock,
// with distinct idempotency keys and a high rate limit. Fails on any 5xx or socket error;
// reports the heap after GC and the mock's structure sizes. Run with `pnpm soak`.
import autocannon from 'autocannon';
import { startMockServer } from '../packages/mock-server/dist/index.js';
import { API_PREFIX, ENDPOINTS, fillPath } from '../packages/sdk/dist/internal.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (pnpm soak does).');
  process.exit(2);
}
const heapAfterGc = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

const server = await startMockServer({
  port: 0,
  config: {
    accounts: [
      {
        id: 'soak',
        apiKeys: ['soak-key'],
        credits: 1_000_000_000,
        pricing: { requests_per_minute: 1_000_000_000 },
      },
    ],
    jobs: { queuedMs: 100, runningMs: 200 },
  },
});
const heapBefore = heapAfterGc();

let n = 0;
const auth = { authorization: 'Bearer soak-key', 'content-type': 'application/json' };
// One cycle per connection: generate a new profile (a distinct key), read it, the balance,
// a checkout, and a job poll.
const line = (name, params = {}) => ({
  method: ENDPOINTS[name].method,
  path: `${API_PREFIX}${fillPath(ENDPOINTS[name], params)}`,
});
const requests = [
  {
    ...line('generateArticle'),
    setupRequest: (req) => {
      const id = ++n;
      return {
        ...req,
        headers: { ...auth, 'idempotency-key': `soak-${id}` },
        body: JSON.stringify({ profile_id: `soak-${id}` }),
      };
    },
  },
  {
    method: ENDPOINTS.readArticle.method,
    setupRequest: (req) => ({
      ...req,
      ...line('readArticle', { profile_id: `soak-${Math.max(1, n - 500)}` }),
      headers: auth,
    }),
  },
  { ...line('getBalance'), headers: auth },
  { ...line('createCheckout'), headers: auth, body: JSON.stringify({ credits: 100 }) },
  { ...line('getJob', { job_id: '00000000-0000-4000-8000-000000000000' }), headers: auth },
];

const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests });
const codes = result.statusCodeStats ?? {};
const fiveXx = Object.entries(codes)
  .filter(([code]) => Number(code) >= 500)
  .reduce((sum, [, stat]) => sum + stat.count, 0);
const stats = server.service.stats();
const heapAfter = heapAfterGc();
const report = {
  seconds: SECONDS,
  connections: CONNECTIONS,
  requests: result.requests.total,
  perSecond: Math.round(result.requests.average),
  statusCodes: Object.fromEntries(Object.entries(codes).map(([code, stat]) => [code, stat.count])),
  fiveXx,
  socketErrors: result.errors,
  timeouts: result.timeouts,
  heapAfterGcMiB: { before: +(heapBefore / 2 ** 20).toFixed(1), after: +(heapAfter / 2 ** 20).toFixed(1) },
  sizes: stats.sizes,
};
console.log(JSON.stringify(report, null, 2));
await server.close();

const bounded =
  stats.sizes.journal <= stats.sizes.journalCapacity &&
  stats.sizes.ledgerEntries <= stats.sizes.ledgerCapacity &&
  stats.sizes.rateBuckets === 60 * stats.sizes.rateWindows;
if (fiveXx > 0 || result.errors > 0 || result.timeouts > 0 || !bounded) {
  console.error('soak failed: 5xx answers, socket errors, timeouts or unbounded state (see above)');
  process.exit(1);
}
console.log('soak passed');
