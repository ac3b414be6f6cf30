// Goal 4: sequential `credits.balance()` calls against a server in another process, with
// three baselines from the same run: bare fetch + JSON.parse, ky alone making the same
// request, and openai-node's client making a comparable GET. Goals: SDK ≤ 1.05× ky alone
// and below openai-node; the SDK against a bare fetch is recorded for the stretch goal.
import OpenAI from 'openai';
import { ProfileArticles } from '../packages/sdk/dist/index.js';
import { startServer } from './lib/processes.mjs';
import { median, publish, row, SMOKE } from './lib/stats.mjs';
import { API_KEY } from './scenarios.mjs';

const ky = (await import('../packages/sdk/node_modules/ky/distribution/index.js')).default;
const CALLS = SMOKE ? 200 : 2000;
const ROUNDS = SMOKE ? 1 : 5;

const server = await startServer('bare');
const url = `${server.url}/api/v1/credits`;
const headers = { authorization: `Bearer ${API_KEY}` };
const sdk = new ProfileArticles({ apiKey: API_KEY, baseUrl: server.url });
const openai = new OpenAI({ apiKey: API_KEY, baseURL: server.url, maxRetries: 2 });

const clients = {
  fetch: async () => JSON.parse(await (await fetch(url, { headers })).text()),
  ky: () => ky.get(url, { headers }).json(),
  openai: () => openai.get('/api/v1/credits'),
  sdk: () => sdk.credits.balance(),
};
/**
 * Microseconds per call over `n` sequential calls: wall time, and this process's CPU time.
 * On a loaded machine the wall time mostly measures the server's turn on a core; the client's
 * own CPU time per call is what the SDK adds, and varies far less.
 */
async function perCall(call, n) {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await call();
  const wall = Number(process.hrtime.bigint() - started) / n / 1e3;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / n };
}
const samples = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
try {
  for (const call of Object.values(clients)) await perCall(call, 300); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, call] of Object.entries(clients)) samples[name].push(await perCall(call, CALLS));
  }
} finally {
  server.stop();
}
const medianOf = (key) =>
  Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list.map((s) => s[key]))]));
const us = medianOf('wall');
const cpu = medianOf('cpu');
const show = (m) =>
  `fetch ${m.fetch.toFixed(0)}, ky ${m.ky.toFixed(0)}, openai ${m.openai.toFixed(0)}, SDK ${m.sdk.toFixed(0)}`;
console.log(
  `µs per call (medians of ${ROUNDS} rounds of ${CALLS}): ${show(us)}; client CPU µs per call: ${show(cpu)}`,
);
publish('sdk-overhead', [
  row({ figure: 'SDK balance() vs ky alone', measured: us.sdk, baseline: us.ky, unit: 'µs', goal: 1.05 }),
  row({
    figure: 'SDK balance() vs openai-node GET',
    measured: us.sdk,
    baseline: us.openai,
    unit: 'µs',
    goal: 1,
  }),
  row({
    figure: '(stretch) SDK balance() vs bare fetch',
    measured: us.sdk,
    baseline: us.fetch,
    unit: 'µs',
    goal: 1.3,
  }),
  row({
    figure: '(reference) SDK client CPU per call vs ky alone',
    measured: cpu.sdk,
    baseline: cpu.ky,
    unit: 'µs',
    goal: 1.05,
  }),
  row({
    figure: '(reference) ky alone vs bare fetch',
    measured: us.ky,
    baseline: us.fetch,
    unit: 'µs',
    goal: 1.3,
  }),
]);
