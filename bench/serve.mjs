// A server for the load benchmarks, in its own process: `bare` (node:http answering the
// mock's own recorded bodies), `mock`, `mock-full N` (the mock with N articles stored),
// `mock-data` (the mock with --data in a new folder), or `mock-stubs N` (the mock with N outcome
// stubs registered that match none of the benched requests).
import http from 'node:http';
import { createMockService, FAULT_ROUTES, startMockServer } from '../packages/mock-server/dist/index.js';
import { newDataFolder } from './lib/scratch.mjs';
import { BENCH_CONFIG, fill, prepare, requestFor, SCENARIOS, settleHeap } from './scenarios.mjs';

const [kind, stored = '0'] = process.argv.slice(2);
const dataServer =
  kind === 'mock-data'
    ? await startMockServer({
        port: 0,
        config: { ...BENCH_CONFIG, dataDir: newDataFolder() },
      })
    : undefined;
const service = dataServer?.service ?? createMockService(BENCH_CONFIG);
await prepare(service);
if (kind === 'mock-stubs') {
  // Spread over every route, each for a profile no benched request names: every request checks
  // its route's stubs (and reads the profile it names) and then takes its usual path.
  for (let i = 0; i < Number(stored); i++) {
    const route = FAULT_ROUTES[i % FAULT_ROUTES.length];
    service.stub({ match: { route, profileId: `nobody-${i}` }, outcome: { status: 500 }, times: null });
  }
} else if (Number(stored) > 0) {
  await fill(service, Number(stored));
  // Measured from the state the stored articles leave, not from the fill's own garbage
  // (200 MB at 100,000): every scavenge walks the old generation's pages, so an inflated heap
  // slows each request. lib/processes.mjs starts servers with --expose-gc.
  await settleHeap();
}

let url;
if (kind === 'bare') {
  // The same status, content type and bytes the mock answers, looked up by method and path.
  const answers = new Map();
  for (const scenario of SCENARIOS) {
    const response = await service.handle(requestFor(scenario));
    answers.set(`${scenario.method} ${scenario.path}`, {
      status: response.status,
      type: response.headers.get('content-type'),
      body: Buffer.from(await response.arrayBuffer()),
    });
  }
  const server = http.createServer((req, res) => {
    const answer = answers.get(`${req.method} ${req.url}`);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': answer.body.length });
    res.end(answer.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
} else {
  url = dataServer?.url ?? (await startMockServer({ port: 0, service })).url;
}
process.stdout.write(`${url}\n`);
process.on('SIGTERM', () => process.exit(0));
