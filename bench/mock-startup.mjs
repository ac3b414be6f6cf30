// Goal 7: `profile-articles-mock --port 0` prints its URL within 1.5× of the time `node -e`
// takes to start a bare node:http server and print its URL.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compare, publish, row, SMOKE } from './lib/stats.mjs';

const bin = fileURLToPath(new URL('../packages/mock-server/dist/bin.js', import.meta.url));
const bare = `const s=require('node:http').createServer((q,r)=>r.end());s.listen(0,'127.0.0.1',()=>console.log('http://127.0.0.1:'+s.address().port))`;
const RUNS = SMOKE ? 3 : 15;

/** Milliseconds from spawn until the first stdout line that names a URL. */
function untilUrl(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/http:\/\/\S+:\d+/.test(out)) {
        resolve(Number(process.hrtime.bigint() - started) / 1e6);
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing a URL`)));
  });
}

const mock = [];
const node = [];
await untilUrl([bin, '--port', '0']);
for (let i = 0; i < RUNS; i++) {
  mock.push(await untilUrl([bin, '--port', '0']));
  node.push(await untilUrl(['-e', bare]));
}
publish('mock-startup', [
  row({
    figure: 'profile-articles-mock --port 0 vs node:http',
    ...compare(mock, node),
    unit: 'ms',
    goal: 1.5,
  }),
]);
