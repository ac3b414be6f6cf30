// One autocannon generator, run by lib/load.mjs in a process of its own: it loads the server
// with its share of the connections once told to start, and sends back its counts and its
// latencies as 0.1 ms buckets, so that the parent can merge several generators exactly.
import autocannon from 'autocannon';

process.on('message', ({ url, method, headers, body, connections, pipelining, duration }) => {
  const buckets = new Map();
  const instance = autocannon(
    { url, method, headers, body, connections, pipelining, duration },
    (error, result) => {
      if (error) throw error;
      // No exit here (the 'message' listener keeps the IPC channel, and so the process,
      // alive): the parent samples this process's CPU once every generator is done, then ends it.
      process.send({
        ok: result['2xx'],
        buckets: [...buckets],
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      });
    },
  );
  // autocannon's own histogram keeps whole milliseconds, and percentiles cannot be merged.
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status < 200 || status > 299) return;
    const bucket = Math.round(ms * 10);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
  });
});
process.send('ready');
