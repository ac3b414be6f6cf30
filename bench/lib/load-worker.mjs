// Runs one autocannon load on request from lib/load.mjs and sends back its figures.
import autocannon from 'autocannon';

process.once('message', async ({ url, method, headers, body, connections, duration }) => {
  const result = await autocannon({ url, method, headers, body, connections, duration, pipelining: 1 });
  const ok = result['2xx'];
  process.send(
    {
      rps: ok / duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    },
    () => process.exit(0),
  );
});
process.send('ready');
