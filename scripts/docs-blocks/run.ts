// Runs one docs code block as a reader would, against a mock server the caller started:
// ts/js as an ES module that can import the built packages, sh in bash with the bins on PATH.
//
// The docs start their own mock on port 4010 (`profile-articles mock --port 4010`, or the
// default port, which is 4010 too). A fixed port collides on a shared machine and between
// test files running side by side, so each sh block gets a port that is free when it starts:
// every `4010` in the block's text is replaced by it, and a mock the block starts without
// `--port` is given it. The docs keep showing 4010.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import type { CodeBlock } from './extract.js';

export interface BlockRun {
  code: number | null;
  output: string;
}

/** A folder inside the repository, so that blocks resolve msw and zod from its node_modules,
 *  with the workspace packages linked in as a customer's install would have them. */
export function prepareWorkspace(root: string, name = 'docs-blocks'): string {
  const dir = join(root, '.tmp', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules', '@profile-articles'), { recursive: true });
  mkdirSync(join(dir, 'bin'));
  for (const name of ['sdk', 'cli', 'mock-server']) {
    symlinkSync(join(root, 'packages', name), join(dir, 'node_modules', '@profile-articles', name), 'dir');
  }
  const shim = (target: string) => `#!/bin/sh\nexec "${process.execPath}" "${target}" "$@"\n`;
  writeFileSync(
    join(dir, 'bin', 'profile-articles'),
    shim(join(root, 'packages/cli/bin/profile-articles.cjs')),
    {
      mode: 0o755,
    },
  );
  writeFileSync(
    join(dir, 'bin', 'profile-articles-mock'),
    shim(join(root, 'packages/mock-server/bin/profile-articles-mock.js')),
    { mode: 0o755 },
  );
  return dir;
}

// Docs show `client.…` after the page has made one; a block that uses it without making it
// gets one pointed at the mock, as the reader's would be.
const CLIENT_PRELUDE =
  "import { ProfileArticles as DocsProfileArticles } from '@profile-articles/sdk';\nconst client = new DocsProfileArticles();\n";

// `npx @profile-articles/…` runs the packages of this checkout, never the registry's.
const SH_PRELUDE = `npx() {
  case "$1" in
    @profile-articles/cli) shift; profile-articles "$@" ;;
    @profile-articles/mock-server) shift; profile-articles-mock "$@" ;;
    *) echo "docs blocks may only npx our packages, not $1" >&2; return 127 ;;
  esac
}
# A mock started without --port gets the block's free port, never the default 4010.
no_port_flag() {
  for arg in "$@"; do case "$arg" in --port|--port=*) return 1 ;; esac; done
}
profile-articles() {
  if [ "$1" = mock ] && no_port_flag "$@"; then
    shift; command profile-articles mock --port "$DOCS_MOCK_PORT" "$@"
  else
    command profile-articles "$@"
  fi
}
profile-articles-mock() {
  if no_port_flag "$@"; then command profile-articles-mock --port "$DOCS_MOCK_PORT" "$@"
  else command profile-articles-mock "$@"; fi
}
# \`pnpm cli …\` (and \`pnpm -s cli …\`) from a clone: the root script that runs the built CLI.
pnpm() {
  [ "$1" = "-s" ] && shift
  case "$1" in
    cli) shift; profile-articles "$@" ;;
    *) echo "docs blocks may only run pnpm cli, not pnpm $1" >&2; return 127 ;;
  esac
}
`;

function jsSource(block: CodeBlock): string {
  const declares = /\b(const|let|var)\s+client\b/.test(block.code);
  const uses = /\bclient\./.test(block.code);
  const source = (uses && !declares ? CLIENT_PRELUDE : '') + block.code;
  return transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code;
}

/** The port the docs show for a mock they start themselves. */
const DOCUMENTED_PORT = /\b4010\b/g;

/** A port nothing listens on right now, as the OS hands out for port 0. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function runBlock(
  root: string,
  workspace: string,
  index: number,
  block: CodeBlock,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<BlockRun> {
  const home = mkdtempSync(join(workspace, 'home-'));
  let command: string;
  let args: string[];
  const port = String(await freePort());
  if (block.kind === 'js') {
    const file = join(workspace, `block-${index}.mjs`);
    writeFileSync(file, jsSource(block));
    [command, args] = [process.execPath, [file]];
  } else {
    const code = block.code.replace(DOCUMENTED_PORT, port);
    [command, args] = ['bash', ['-e', '-o', 'pipefail', '-c', SH_PRELUDE + code]];
  }
  return new Promise((resolve) => {
    // Its own process group, so that whatever a block leaves running (`mock &`) ends with it.
    const child = spawn(command, args, {
      // `pnpm cli …` blocks are written for a clone of this repository: they run at its root.
      cwd: block.kind === 'sh' && /\bpnpm\b/.test(block.code) ? root : home,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PATH: `${join(workspace, 'bin')}:${process.env.PATH}`,
        HOME: home,
        PROFILE_ARTICLES_CONFIG_DIR: home,
        DOCS_MOCK_PORT: port,
        ...env,
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      output += `\n[timed out after ${timeoutMs} ms]`;
      kill();
    }, timeoutMs);
    // The block's own exit decides; then whatever it left in the background is stopped, which
    // closes the pipes a background server still holds.
    child.on('exit', (code) => {
      clearTimeout(timer);
      kill();
      child.on('close', () => resolve({ code, output }));
    });
  });
}
