// Shared by the benchmarks: a bounded loopback load, and ratio printing. Every benchmark
// measures its baseline in the same run, since these machines are noisy.
import http from 'node:http';

/** Sends GET requests over `connections` keep-alive sockets for `seconds`; returns requests/s. */
export async function loadTest(url, { connections = 32, seconds = 3, headers = {} } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const status = await new Promise((resolve) => {
        const req = http.get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        });
        req.on('error', () => resolve(0));
      });
      if (status === 200) done++;
      else failed++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  if (failed) throw new Error(`${failed} requests failed`);
  return done / ((Date.now() - started) / 1000);
}

export function report(name, measured, baseline, goal, higherIsBetter = true) {
  const ratio = measured / baseline;
  const pass = higherIsBetter ? ratio >= goal : ratio <= goal;
  const sign = higherIsBetter ? '≥' : '≤';
  console.log(`${pass ? 'PASS' : 'FAIL'} ${name}: ${ratio.toFixed(2)}× (goal ${sign} ${goal}×)`);
  return pass;
}
