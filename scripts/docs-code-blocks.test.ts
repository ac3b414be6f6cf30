// The docs cannot rot: every ts/js/sh block in README.md, CONTRIBUTING.md, SECURITY.md,
// docs/*.md and the packages' READMEs runs here against a fresh mock server, unless it is
// marked `no-run` (see CONTRIBUTING.md). Uses the built packages: `pnpm test` builds first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CodeBlock, documentationFiles, extractBlocks } from './docs-blocks/extract.js';
import { type BlockRun, prepareWorkspace, runBlock } from './docs-blocks/run.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const blocks: CodeBlock[] = documentationFiles(root).flatMap((file) =>
  extractBlocks(file, readFileSync(join(root, file), 'utf8')),
);
const runnable = blocks.filter((block) => block.runnable);
// Blocks poll at the SDK's default 10 s; the mock's jobs end well before the first poll.
const TIMEOUT_MS = 45_000;
const results = new Map<CodeBlock, BlockRun>();
const servers: MockServer[] = [];

async function run(workspace: string, block: CodeBlock): Promise<void> {
  const mock = await startMockServer({ port: 0, config: { jobs: { queuedMs: 50, runningMs: 50 } } });
  servers.push(mock);
  const env = {
    PROFILE_ARTICLES_API_KEY: 'demo-key',
    PROFILE_ARTICLES_BASE_URL: mock.url,
    PROFILE_ARTICLES_POLL_INTERVAL: '0.05',
    NO_COLOR: '1',
  };
  results.set(block, await runBlock(root, workspace, blocks.indexOf(block), block, env, TIMEOUT_MS));
}

async function pool(items: CodeBlock[], size: number, work: (block: CodeBlock) => Promise<void>) {
  const queue = [...items];
  const worker = async () => {
    for (let block = queue.shift(); block; block = queue.shift()) await work(block);
  };
  await Promise.all(Array.from({ length: size }, worker));
}

// Every block runs up front, the waiting ones side by side (most of their time is a 10 s poll
// interval); shell blocks one at a time, since each starts several node processes. A block
// that starts a mock on the documented port 4010 gets a free port instead (docs-blocks/run.ts).
beforeAll(async () => {
  const workspace = prepareWorkspace(root);
  await Promise.all([
    pool(
      runnable.filter((block) => block.kind === 'js'),
      10,
      (block) => run(workspace, block),
    ),
    pool(
      runnable.filter((block) => block.kind === 'sh'),
      1,
      (block) => run(workspace, block),
    ),
  ]);
}, 240_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

it('finds the code blocks of the docs', () => {
  expect(runnable.length).toBeGreaterThan(10);
});

it.each(runnable.map((block) => [block.where, block] as const))('%s runs', (_, block) => {
  const result = results.get(block)!;
  expect(result.code, `${block.where} failed:\n${block.code}\n--- output ---\n${result.output}`).toBe(0);
  // A copied example should not teach sending the key over plain http (the SDK warns of it).
  expect(result.output, `${block.where} warns of plain http`).not.toMatch(/is plain http to another machine/);
});
