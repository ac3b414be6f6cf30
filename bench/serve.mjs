// A server for the load benchmarks, in its own process so the load generator does not
// share its event loop: `bare` (node:http, fixed JSON), `mock`, or `mock-full` (20k stored).
import http from 'node:http';
import { createMockService, startMockServer } from '../packages/mock-server/dist/index.js';

export const BENCH_CONFIG = {
  accounts: [
    {
      id: 'bench',
      apiKeys: ['bench-key'],
      credits: 10_000_000,
      pricing: { requests_per_minute: 100_000_000 },
    },
  ],
  jobs: { queuedMs: 0, runningMs: 0 },
};
const headers = { authorization: 'Bearer bench-key' };

async function fill(service, count) {
  for (let i = 0; i < count; i++) {
    await service.handle(
      new Request('http://x/api/v1/articles', {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': `k${i}`, 'content-type': 'application/json' },
        body: JSON.stringify({ profile_id: `profile-${i}` }),
      }),
    );
  }
  service.advanceClock(1000);
}

const kind = process.argv[2];
let url;
if (kind === 'bare') {
  const service = createMockService(BENCH_CONFIG);
  const body = await (await service.handle(new Request('http://x/api/v1/credits', { headers }))).text();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
} else {
  const service = createMockService(BENCH_CONFIG);
  if (kind === 'mock-full') await fill(service, 20_000);
  url = (await startMockServer({ port: 0, service })).url;
}
process.stdout.write(`${url}\n`);
process.on('SIGTERM', () => process.exit(0));
