// The built mock (`packages/mock-server/dist/bin.js`, so `pnpm build` first) in a child process,
// with Node flags of the test's choosing (a small heap, say): for what only a process shows,
// such as running out of memory. Killed when the test ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const BIN = fileURLToPath(new URL('../../mock-server/dist/bin.js', import.meta.url));

export interface MockProcess {
  url: string;
  child: ChildProcess;
  /** What the process wrote to stderr so far (a crash's reason). */
  stderr(): string;
}

/** Call once per test file; returns `start(config, nodeArgs)`. */
export function useMockProcesses() {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });
  return async function start(config: unknown, nodeArgs: string[] = []): Promise<MockProcess> {
    const path = join(mkdtempSync(join(tmpdir(), 'mock-process-')), 'config.json');
    writeFileSync(path, JSON.stringify(config));
    const child = spawn(process.execPath, [...nodeArgs, BIN, '--port', '0', '--config', path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
        if (match) resolve(match[0]);
      });
      child.on('exit', (code) => reject(new Error(`the mock exited (${code}) before serving: ${stderr}`)));
    });
    return { url, child, stderr: () => stderr };
  };
}
