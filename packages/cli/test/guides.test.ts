// `profile-articles help <topic>` as an npm user meets it: the guides come from the packed
// tarball (not the repository), render like articles on a terminal (tables, width, the pager),
// and stay plain Markdown in a pipe.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_TOPICS } from '../src/shell/guide-topics.js';
import { BIN, runCli } from './helpers.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
const TOPICS = Object.keys(GUIDE_TOPICS);

/** Runs a script with this Node; its exit code is in what it prints. */
const runNode = (file: string) =>
  new Promise<{ stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [file], (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });

describe('the guides', () => {
  it('are exactly the files of docs/guides/, each linked from docs/cli.md', () => {
    const files = readdirSync(join(DOCS, 'guides')).map((file) => file.replace(/\.md$/, ''));
    expect(files.sort()).toEqual([...TOPICS].sort());
    const cli = readFileSync(join(DOCS, 'cli.md'), 'utf8');
    for (const topic of TOPICS) expect(cli).toContain(`(guides/${topic}.md)`);
  });

  it('are listed by --help, each with what it is about', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Guides (profile-articles help <topic>):');
    for (const topic of TOPICS) expect(stdout).toMatch(`  ${topic}  `);
    for (const about of Object.values(GUIDE_TOPICS)) expect(stdout).toContain(about);
  });

  it('`help environment` names the hidden --api-key, why --help hides it, and where a stored key may go', async () => {
    const { code, stdout } = await runCli(['help', 'environment']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/`--api-key KEY`[^\n]*hidden from `--help`[^\n]*shell history/);
    expect(stdout).toMatch(/A stored key goes only to the origin it was stored with/);
  });

  it('`help <near miss>` suggests the guide', async () => {
    const { code, stderr } = await runCli(['help', 'exit-code']);
    expect(code).toBe(2);
    expect(stderr).toContain('(Did you mean exit-codes?)');
  });
});

describe('from the packed tarball', () => {
  let unpacked: string;
  beforeAll(() => {
    // Unpacked under the CLI's node_modules, so the tarball's files resolve their dependencies
    // from the workspace as an installed package resolves them from its own node_modules.
    const scratch = join(PACKAGE, 'node_modules', '.cache');
    mkdirSync(scratch, { recursive: true });
    unpacked = mkdtempSync(join(scratch, 'guides-pack-'));
    execFileSync('pnpm', ['pack', '--pack-destination', unpacked], { cwd: PACKAGE, stdio: 'ignore' });
    const tarball = readdirSync(unpacked).find((file) => file.endsWith('.tgz'));
    execFileSync('tar', ['-xzf', join(unpacked, tarball!), '-C', unpacked]);
  }, 120_000);
  afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

  it.each(TOPICS)('`help %s` prints the guide the tarball carries', async (topic) => {
    const bin = join(unpacked, 'package', 'bin', 'profile-articles.cjs');
    const { code, stdout } = await runCli(['help', topic], { bin });
    expect(code).toBe(0);
    expect(stdout.trimEnd()).toBe(readFileSync(join(DOCS, 'guides', `${topic}.md`), 'utf8').trimEnd());
  });

  // The exported run(), required from CommonJS and imported as ESM by a project of its own: the
  // CommonJS build had no import.meta ("Invalid URL"), the ESM one looked a folder too high.
  it.each([
    ['required from CommonJS', 'index.cjs', 'const { run } = require(DIST);'],
    ['imported as ESM', 'index.mjs', 'const { run } = await import(DIST);'],
  ])('the exported run() prints a guide when %s', async (_how, file, load) => {
    const project = mkdtempSync(join(unpacked, 'project-'));
    const dist = join(unpacked, 'package', 'dist', file === 'index.cjs' ? 'index.cjs' : 'index.js');
    const script = [
      `const DIST = ${JSON.stringify(file === 'index.cjs' ? dist : pathToFileURL(dist).href)};`,
      file === 'index.cjs' ? '(async () => {' : '',
      load,
      "let out = '';",
      'const io = { stdout: { write: (c) => { out += c; } }, stderr: process.stderr, stdin: process.stdin, env: {} };',
      "const code = await run(['node', 'profile-articles', 'help', 'environment'], io);",
      'process.stdout.write(JSON.stringify({ code, out }));',
      file === 'index.cjs' ? '})();' : '',
    ].join('\n');
    writeFileSync(join(project, file), script);
    const { stdout, stderr } = await runNode(join(project, file));
    expect(stderr).toBe('');
    const { code, out } = JSON.parse(stdout);
    expect(code).toBe(0);
    expect(out.trimEnd()).toBe(readFileSync(join(DOCS, 'guides', 'environment.md'), 'utf8').trimEnd());
  });

  it('its README names `profile-articles help <topic>`, not the repository’s docs folder', () => {
    const readme = readFileSync(join(unpacked, 'package', 'README.md'), 'utf8');
    expect(readme).toContain('profile-articles help <topic>');
    for (const topic of TOPICS) expect(readme).toContain(`\`${topic}\``);
    expect(readme).not.toMatch(/docs\/|the project's repository/);
  });
});

describe.runIf(hasTmux)('on a terminal', () => {
  const shell = (extra: string) => `env -u CI -u NO_COLOR -u PAGER -u LESS ${extra}; echo EXIT=$?; sleep 30`;

  it('renders its tables to the width, in the pager when it does not fit, and q quits', async () => {
    const term = openTerminal(shell(`${process.execPath} ${BIN} help exit-codes`), { columns: 80, rows: 24 });
    try {
      const paged = await term.waitFor(/\n:\s*$/);
      const lines = paged.replace(/\n$/, '').split('\n');
      expect(lines).toHaveLength(24);
      expect(lines[0]).toBe('Exit codes');
      expect(paged).toMatch(/^ {2}code {2}meaning$/m);
      expect(paged).not.toContain('| code |');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
      term.type('q');
      expect(screenLines(await term.waitFor('EXIT=')).at(-1)).toBe('EXIT=0');
    } finally {
      term.close();
    }
  });

  it('--no-pager prints it rendered, wrapped to a narrow terminal', async () => {
    const term = openTerminal(shell(`${process.execPath} ${BIN} help environment --no-pager`), {
      columns: 50,
      rows: 200,
    });
    try {
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(lines.at(-1)).toBe('EXIT=0');
      expect(lines[0]).toBe('Environment variables');
      // Too narrow for two columns: each variable on its own line, what it does under it.
      expect(lines).toContain('  PROFILE_ARTICLES_POLL_INTERVAL');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(50);
    } finally {
      term.close();
    }
  });
});
