// Goal 4: sequential `credits.balance()` calls against a server in another process, with
// the three baselines from the same run (bare fetch + JSON.parse, ky alone making the
// same request, and openai-node's client making a comparable GET) and, as a reference, the
// same SDK client over Node's fetch. Goals: SDK ≤ 1.05× ky alone and below openai-node; the
// SDK against a bare fetch is recorded for the stretch goal. The SDK is the build Node resolves
// for `import '@profile-articles/sdk'` (the `node` export condition: node:http). ky is
// the root's development dependency for this baseline; the SDK no longer uses it (decision 11).
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { GENERATOR_CPUS, pin, startServer } from './lib/processes.mjs';
import { compare, median, publish, ratiosOfPairs, row, SMOKE } from './lib/stats.mjs';
import { API_KEY } from './scenarios.mjs';

const sdkPackage = JSON.parse(readFileSync(new URL('../packages/sdk/package.json', import.meta.url), 'utf8'));
const { ProfileArticles } = await import(
  new URL(`../packages/sdk/${sdkPackage.exports['.'].import.node}`, import.meta.url)
);
const ky = (await import('ky')).default;
const CALLS = SMOKE ? 200 : 2000;
const ROUNDS = SMOKE ? 1 : 7;

// The clients run on the load generators' cores and the server on its own, as in every load
// benchmark: left to the scheduler, a client sometimes shared the server's core and sometimes
// not, and the same client's time per call moved by half between runs.
pin(process.pid, GENERATOR_CPUS);
const server = await startServer('bare');
const url = `${server.url}/api/v1/credits`;
const headers = { authorization: `Bearer ${API_KEY}` };
const sdk = new ProfileArticles({ apiKey: API_KEY, baseUrl: server.url });
const sdkOverFetch = new ProfileArticles({ apiKey: API_KEY, baseUrl: server.url, fetch: globalThis.fetch });
const openai = new OpenAI({ apiKey: API_KEY, baseURL: server.url, maxRetries: 2 });

const clients = {
  fetch: async () => JSON.parse(await (await fetch(url, { headers })).text()),
  ky: () => ky.get(url, { headers }).json(),
  openai: () => openai.get('/api/v1/credits'),
  sdk: () => sdk.credits.balance(),
  sdkOverFetch: () => sdkOverFetch.credits.balance(),
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
const names = Object.keys(clients);
/**
 * Round `round`'s order. Turning a fixed order only rotates it, so every client would still
 * follow the same neighbour and pay for the garbage that one left (openai-node leaves the
 * most, and the SDK came after it in nearly every round: a tenth on its time in some rounds).
 * Odd rounds run the turned order backwards, so each client follows two different neighbours.
 */
const orderOf = (round) => {
  const turned = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
  return round % 2 ? turned.reverse() : turned;
};
try {
  // Warm-up: after 1,000 calls the SDK's first timed round still ran 1.25–1.6× ky alone in four
  // runs out of four (its code reaches V8's optimised tier later than ky's shorter path); after
  // 2,000 or more, 1.00–1.14×, as in later rounds.
  for (const call of Object.values(clients)) await perCall(call, SMOKE ? 100 : 3000);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of orderOf(round)) {
      // Untimed calls first: a collection the previous client's garbage owes falls in them.
      await perCall(clients[name], SMOKE ? 20 : 200);
      samples[name].push(await perCall(clients[name], CALLS));
    }
  }
} finally {
  server.stop();
}
/** One client's samples of `key` (wall or cpu), one per round. */
const series = (name, key = 'wall') => samples[name].map((s) => s[key]);
const medianOf = (key) => Object.fromEntries(names.map((name) => [name, median(series(name, key))]));
const us = medianOf('wall');
const cpu = medianOf('cpu');
/** One client's samples of `key` against another's, round by round (see `compare`). */
const versus = (name, baseline, key = 'wall') => compare(series(name, key), series(baseline, key));
const show = (m) =>
  `fetch ${m.fetch.toFixed(0)}, ky ${m.ky.toFixed(0)}, openai ${m.openai.toFixed(0)}, SDK ${m.sdk.toFixed(0)}, SDK over fetch ${m.sdkOverFetch.toFixed(0)}`;
console.log(
  `µs per call (medians of ${ROUNDS} rounds of ${CALLS}): ${show(us)}; client CPU µs per call: ${show(cpu)}`,
);
const perRound = (name, baseline) =>
  ratiosOfPairs(series(name), series(baseline))
    .map((ratio) => ratio.toFixed(2))
    .join(' ');
console.log(
  `SDK / ky alone per round: ${perRound('sdk', 'ky')}; SDK / openai-node: ${perRound('sdk', 'openai')}`,
);
publish('sdk-overhead', [
  row({ figure: 'SDK balance() vs ky alone', ...versus('sdk', 'ky'), unit: 'µs', goal: 1.05 }),
  row({ figure: 'SDK balance() vs openai-node GET', ...versus('sdk', 'openai'), unit: 'µs', goal: 1 }),
  row({ figure: '(stretch) SDK balance() vs bare fetch', ...versus('sdk', 'fetch'), unit: 'µs', goal: 1.3 }),
  row({
    figure: '(reference) SDK client CPU per call vs ky alone',
    ...versus('sdk', 'ky', 'cpu'),
    unit: 'µs',
    goal: 1.05,
  }),
  row({
    figure: '(reference) SDK client CPU per call vs openai-node',
    ...versus('sdk', 'openai', 'cpu'),
    unit: 'µs',
    goal: 1,
  }),
  row({
    figure: '(reference) SDK (node:http) vs the SDK over fetch',
    ...versus('sdk', 'sdkOverFetch'),
    unit: 'µs',
    goal: 1,
  }),
  row({ figure: '(reference) ky alone vs bare fetch', ...versus('ky', 'fetch'), unit: 'µs', goal: 1.3 }),
]);
