// pnpm check:runtimes' edge rows: the SDK smoke (smoke-checks.mjs) bundled with esbuild for an edge
// runtime and run there against the mock, with the runtime's own fetch as the SDK's default.
//   node edge-smoke.mjs workerd MODULES MOCK_URL       a module Worker under miniflare (workerd)
//   node edge-smoke.mjs edge-runtime MODULES MOCK_URL  a script under EdgeRuntime (Vercel's)
// MODULES is the node_modules folder check-runtimes.mjs installed miniflare and edge-runtime in
// (never the lockfile). Prints the smoke's report; exits 1 with what failed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [kind, modules, baseUrl] = process.argv.slice(2);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '../..');
const requireThere = createRequire(join(modules, 'package.json'));
const load = async (name) => import(pathToFileURL(requireThere.resolve(name)).href);
const versionOf = (name) => JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;

/** The entry bundled into one file, the SDK resolved through its package.json as the runtime's bundler would. */
async function bundle(entry, options) {
  const result = await build({
    entryPoints: [join(here, entry)],
    bundle: true,
    write: false,
    platform: 'neutral',
    target: 'es2022',
    // The workspace link to the SDK (the CLI depends on it): resolved by its `exports`.
    nodePaths: [join(root, 'packages/cli/node_modules')],
    logLevel: 'error',
    ...options,
  });
  return result.outputFiles[0].text;
}

async function workerd() {
  const { Miniflare } = await load('miniflare');
  // wrangler's conditions for a Worker.
  const script = await bundle('worker-entry.mjs', {
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
  });
  const version = `workerd ${versionOf('workerd')} (miniflare ${versionOf('miniflare')})`;
  const reports = [];
  // Without flags the SDK finds no runtime it knows; with nodejs_compat (at this compatibility
  // date) workerd fills process.versions.node with the Node version it emulates, and the
  // User-Agent names that. Both must work.
  for (const [flags, agent] of [
    [[], ''],
    [['nodejs_compat'], 'node'],
  ]) {
    // Each smoke generates again from the start (check-runtimes.mjs resets after the row).
    if (reports.length) await fetch(`${baseUrl}/_mock/reset`, { method: 'POST' });
    // miniflare's outbound network allows private addresses, loopback included (workerd's own
    // default allows only public ones), so the Worker reaches the mock on 127.0.0.1 as it is.
    const mf = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2026-04-01',
      compatibilityFlags: flags,
      bindings: { PROFILE_ARTICLES_BASE_URL: baseUrl },
    });
    try {
      const runtime = `${version}${flags.length ? ` with ${flags.join(', ')}` : ''}`;
      const response = await mf.dispatchFetch(
        `http://smoke.invalid/?${new URLSearchParams({ runtime, agent })}`,
      );
      if (response.status !== 200) return response;
      reports.push(await response.text());
    } finally {
      await mf.dispose();
    }
  }
  return new Response(reports.join('; '));
}

async function edgeRuntime() {
  const { EdgeRuntime } = await load('edge-runtime');
  // Next.js's conditions for the edge runtime; a script, as the EdgeRuntime evaluates one.
  const initialCode = await bundle('edge-entry.mjs', {
    format: 'iife',
    conditions: ['edge-light', 'worker', 'browser'],
  });
  const edge = new EdgeRuntime({ initialCode });
  const query = new URLSearchParams({ baseUrl, version: versionOf('edge-runtime') });
  return edge.dispatchFetch(`http://smoke.invalid/?${query}`);
}

const runs = { workerd, 'edge-runtime': edgeRuntime };
if (!runs[kind]) {
  process.stderr.write(`edge-smoke.mjs: unknown runtime ${kind} (workerd or edge-runtime)\n`);
  process.exit(2);
}
const response = await runs[kind]();
const text = await response.text();
if (response.status !== 200) {
  process.stderr.write(`${text}\n`);
  process.exit(1);
}
process.stdout.write(`${text}\n`);
