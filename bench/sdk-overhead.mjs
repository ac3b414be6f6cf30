// One SDK call against one bare fetch of the same endpoint: goal ≤ 1.25× the time.
// ky alone is measured too, as the reference the goal was set from. The server runs in its
// own process (the bare node:http one), so this measures the client's cost over real latency.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ProfileArticles } from '../packages/sdk/dist/index.js';
import { report } from './lib.mjs';

const ky = (await import('../packages/sdk/node_modules/ky/distribution/index.js')).default;
const child = spawn(process.execPath, [fileURLToPath(new URL('./serve.mjs', import.meta.url)), 'bare'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const origin = await new Promise((resolve) =>
  child.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
);
const url = `${origin}/api/v1/credits`;
const headers = { authorization: 'Bearer bench-key' };
const client = new ProfileArticles({ apiKey: 'bench-key', baseUrl: origin });

const calls = {
  fetch: async () => (await fetch(url, { headers })).json(),
  ky: () => ky.get(url, { headers, retry: 0 }).json(),
  sdk: () => client.credits.balance(),
};
async function time(fn, n) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - started) / n / 1e6;
}
const totals = { fetch: 0, ky: 0, sdk: 0 };
try {
  for (const fn of Object.values(calls)) await time(fn, 500); // warm-up
  for (let round = 0; round < 5; round++) {
    for (const [name, fn] of Object.entries(calls)) totals[name] += await time(fn, 500);
  }
} finally {
  child.kill('SIGTERM');
}
const per = (name) => (totals[name] / 5).toFixed(3);
console.log(`per call: fetch ${per('fetch')} ms, ky ${per('ky')} ms, SDK ${per('sdk')} ms`);
console.log(`(reference) ky alone vs bare fetch: ${(totals.ky / totals.fetch).toFixed(2)}×`);
process.exitCode = report('SDK call vs bare fetch (time)', totals.sdk, totals.fetch, 1.25, false) ? 0 : 1;
