// pnpm check:packages: what a customer gets from npm. Packs each package, checks what the
// tarball carries (LICENSE, a README that stands on its own, license and keywords), lints its
// shape (publint) and its types in every resolution mode, node10 included (attw), installs the
// tarballs into an empty npm project, then imports and requires them and runs the bins.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The customer's project below resolves only what it installed: pnpm's shim for node_modules/.bin/node
// (the Node 22 the scripts run on) sets NODE_PATH to this repository's store, where a require of a
// dependency a package forgot to declare would still be found.
delete process.env.NODE_PATH;
const root = fileURLToPath(new URL('..', import.meta.url));
const packages = ['sdk', 'mock-server', 'cli'];
const out = mkdtempSync(join(tmpdir(), 'profile-articles-pack-'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const rootLicense = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).license;

function run(command, args, options = {}) {
  const shown = args.map((arg) => (arg.includes('\n') ? '<script>' : arg));
  process.stdout.write(`$ ${command.replace(`${root}/`, '')} ${shown.join(' ')}\n`);
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options });
}

const tarballs = {};
for (const name of packages) {
  const dir = join(root, 'packages', name);
  run('pnpm', ['pack', '--pack-destination', out], { cwd: dir });
  tarballs[name] = join(
    out,
    readdirSync(out).find((file) => file.includes(`-${name}-`)),
  );
  checkTarball(name, tarballs[name]);
  process.stdout.write(run(bin('publint'), ['run', '--strict'], { cwd: dir }));
  // attw's default profile is "strict": node10, node16 (from CJS and ESM) and bundler.
  process.stdout.write(run(bin('attw'), [tarballs[name], '--format', 'table-flipped']));
}

// A registry user sees only the tarball: it must carry the license and a README whose links
// work from npmjs.com (absolute URLs or anchors, never a path into this repository).
function checkTarball(name, tarball) {
  const files = run('tar', ['-tzf', tarball]).split('\n');
  const read = (file) => run('tar', ['-xzOf', tarball, `package/${file}`]);
  const problems = [];
  for (const file of ['LICENSE', 'README.md']) {
    if (!files.includes(`package/${file}`)) problems.push(`no ${file}`);
  }
  const manifest = JSON.parse(read('package.json'));
  if (manifest.license !== rootLicense) problems.push(`license is ${manifest.license}, not ${rootLicense}`);
  if (!manifest.keywords?.length) problems.push('no keywords');
  if (files.includes('package/LICENSE') && !read('LICENSE').startsWith('MIT License'))
    problems.push('LICENSE is not MIT');
  if (files.includes('package/README.md')) {
    for (const [, target] of read('README.md').matchAll(/\]\(([^)\s]+)[^)]*\)/g)) {
      if (!/^(https?:|#|mailto:)/.test(target))
        problems.push(`README links to ${target}, which is not on the registry`);
    }
  }
  // `profile-articles help <topic>` reads the guides from the package (docs/cli.md, "Guides").
  if (name === 'cli') {
    for (const guide of readdirSync(join(root, 'docs', 'guides'))) {
      if (!files.includes(`package/guides/${guide}`)) problems.push(`no guides/${guide}`);
    }
  }
  if (problems.length) throw new Error(`${name} tarball: ${problems.join('; ')}`);
  process.stdout.write(`${name} tarball: LICENSE, README, license ${manifest.license}, keywords: ok\n`);
}

// An empty npm project, as a customer has.
const app = mkdtempSync(join(tmpdir(), 'profile-articles-app-'));
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...Object.values(tarballs)], {
  cwd: app,
});

const esm = `
import { ProfileArticles, isJob, NotFoundError } from '@profile-articles/sdk';
import { JobSchema } from '@profile-articles/sdk/schemas';
import { startMockServer } from '@profile-articles/mock-server';
import { run } from '@profile-articles/cli';
const server = await startMockServer({ port: 0 });
const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: server.url, pollIntervalMs: 50 });
const article = await client.articles.generateAndWait('ada-lovelace');
if (article.title !== 'Ada Lovelace' || typeof isJob !== 'function' || !JobSchema || !NotFoundError || !run) throw new Error('esm');
// The dual-package hazard that docs/sdk.md describes: the require()d build is another copy, so
// its errors are not instanceof the imported classes, while name and status still tell them apart.
const { createRequire } = await import('node:module');
const cjs = createRequire(import.meta.url)('@profile-articles/sdk');
const error = await new cjs.ProfileArticles({ apiKey: 'demo-key', baseUrl: server.url }).articles.read('nobody').catch((e) => e);
if (error instanceof NotFoundError || error.name !== 'NotFoundError' || error.status !== 404) throw new Error('dual package');
// @opentelemetry/api is an optional peer, not installed here: the calls above ran without it.
if (await import('@opentelemetry/api').then(() => true, () => false)) throw new Error('@opentelemetry/api is installed');
await server.close();
console.log('import: ok');
`;
const cjs = `
const { ProfileArticles } = require('@profile-articles/sdk');
const { JobSchema } = require('@profile-articles/sdk/schemas');
const { createMockService } = require('@profile-articles/mock-server');
const { run } = require('@profile-articles/cli');
if (!ProfileArticles || !JobSchema || !createMockService || !run) throw new Error('cjs');
console.log('require: ok');
`;
process.stdout.write(run('node', ['--input-type=module', '-e', esm], { cwd: app }));
process.stdout.write(run('node', ['-e', cjs], { cwd: app }));
process.stdout.write(run('npx', ['profile-articles', '--help'], { cwd: app }).split('\n')[0] + '\n');
// Every guide `--help` lists is printed from the installed package (the npm user has no clone).
for (const guide of readdirSync(join(root, 'docs', 'guides'))) {
  const topic = guide.replace(/\.md$/, '');
  const text = run('npx', ['profile-articles', 'help', topic], { cwd: app });
  if (text.trimEnd() !== readFileSync(join(root, 'docs', 'guides', guide), 'utf8').trimEnd())
    throw new Error(`profile-articles help ${topic} is not docs/guides/${guide}`);
}
process.stdout.write('npx profile-articles help <topic>: ok\n');

// The installed CLI (through npx) against the installed mock. The mock's bin is run by this
// Node itself, so that SIGTERM reaches it: npx would exit and leave it running, and so would
// its shebang's `node` here, pnpm's shim for node_modules/.bin/node, which runs Node as its child.
const mockBin = join(app, 'node_modules', '.bin', 'profile-articles-mock');
const mock = spawn(process.execPath, [mockBin, '--port', '0'], {
  cwd: app,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let text = '';
  mock.stdout.on('data', (chunk) => {
    text += chunk;
    const match = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
    if (match) resolve(match[0]);
  });
  mock.on('exit', () => reject(new Error('the mock exited')));
});
try {
  const credits = run('npx', ['profile-articles', 'credits', '--json', '--base-url', url], {
    cwd: app,
    env: { ...process.env, PROFILE_ARTICLES_API_KEY: 'demo-key', PROFILE_ARTICLES_CONFIG_DIR: app },
  });
  if (JSON.parse(credits).credits !== 1000) throw new Error(`unexpected credits: ${credits}`);
  process.stdout.write('npx profile-articles credits: ok\n');
} finally {
  mock.kill('SIGTERM');
}
await new Promise((resolve) => mock.once('exit', resolve));

// With the optional peer installed, the tarball's tracing chunk loads, from import and require:
// a wait is a span whose requests are its children (docs/sdk.md, "Tracing").
run(
  'npm',
  [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    '@opentelemetry/api@~1.9',
    '@opentelemetry/sdk-trace-base@^2',
  ],
  {
    cwd: app,
  },
);
const traced = (load) => `
${load}
const server = await startMockServer({ port: 0, config: { jobs: { queuedMs: 20, runningMs: 20 } } });
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: server.url, pollIntervalMs: 20, tracerProvider });
await client.articles.generateAndWait('ada-lovelace');
await server.close();
const spans = exporter.getFinishedSpans();
const wait = spans.find((span) => span.name === 'profile_articles.articles.generateAndWait');
const children = spans.filter((span) => span !== wait);
if (!wait || children.length < 2 || children.some((span) => span.parentSpanContext?.spanId !== wait.spanContext().spanId))
  throw new Error('spans: ' + spans.map((span) => span.name).join(', '));
console.log('traced: ' + spans.length + ' spans');
`;
process.stdout.write(
  run(
    'node',
    [
      '--input-type=module',
      '-e',
      traced(`
import { ProfileArticles } from '@profile-articles/sdk';
import { startMockServer } from '@profile-articles/mock-server';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';`),
    ],
    { cwd: app },
  ),
);
process.stdout.write(
  run(
    'node',
    [
      '--input-type=module',
      '-e',
      traced(`
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const { ProfileArticles } = require('@profile-articles/sdk');
const { startMockServer } = require('@profile-articles/mock-server');
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');`),
    ],
    { cwd: app },
  ),
);
process.stdout.write('packages: ok\n');
