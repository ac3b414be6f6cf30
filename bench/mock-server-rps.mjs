// The mock server against a bare node:http server answering the same JSON: goal ≥ 0.5×.
// Then O(1) work per request: the mock with 20,000 articles, jobs and keys stored
// against the empty mock. Each server runs in its own process; the load stays on loopback.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadTest, report } from './lib.mjs';

const serve = fileURLToPath(new URL('./serve.mjs', import.meta.url));
const headers = { authorization: 'Bearer bench-key' };

async function start(kind) {
  const child = spawn(process.execPath, [serve, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) =>
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
  );
  return { child, url: `${url}/api/v1/credits` };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// All three run at once and are measured in turns, so drift on the machine hits each alike.
const servers = { bare: await start('bare'), mock: await start('mock'), full: await start('mock-full') };
const samples = { bare: [], mock: [], full: [] };
try {
  for (const server of Object.values(servers)) await loadTest(server.url, { seconds: 1, headers }); // warm-up
  for (let round = 0; round < 3; round++) {
    for (const [name, server] of Object.entries(servers))
      samples[name].push(await loadTest(server.url, { seconds: 2, headers }));
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
}
const bare = median(samples.bare);
const mock = median(samples.mock);
const full = median(samples.full);
console.log(
  `bare node:http ${bare.toFixed(0)} req/s, mock ${mock.toFixed(0)} req/s, mock with 20k stored ${full.toFixed(0)} req/s (medians of 3)`,
);
const ok = [
  report('mock server vs bare node:http', mock, bare, 0.5),
  report('mock with 20k stored vs empty mock', full, mock, 0.8),
];
process.exitCode = ok.every(Boolean) ? 0 : 1;
