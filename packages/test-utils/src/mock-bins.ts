// Both bins that run the mock, built (`pnpm build` first), in a child process with the flags of
// the test's choosing: `profile-articles-mock` and `profile-articles mock`. For what only a
// process shows: flags, its request lines, a restart over a --data folder, SIGKILL.
// Killed (SIGKILL) when the test ends, unless the test has ended it already.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const MOCK_BIN = fileURLToPath(new URL('../../mock-server/dist/bin.js', import.meta.url));
export const CLI_BIN = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));

export type MockBinKind = 'profile-articles-mock' | 'profile-articles mock';
export const MOCK_BIN_KINDS: readonly MockBinKind[] = ['profile-articles-mock', 'profile-articles mock'];

export interface RunningMockBin {
  /** Resolves with the URL it printed; rejects if it ends first. */
  url: Promise<string>;
  child: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches `pattern` (no deadline: the test's timeout decides). */
  waitForOutput(pattern: RegExp): Promise<string>;
}

/**
 * `prefix`: a command that runs node in turn (`bash -c '…; exec "$0" "$@"'`, `nsenter …`), for a
 * test that sets a limit, a umask or a mount namespace only the mock's process has.
 */
export function startMockBin(
  kind: MockBinKind,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  prefix: readonly string[] = [],
): RunningMockBin {
  const argv = kind === 'profile-articles-mock' ? [MOCK_BIN, ...args] : [CLI_BIN, 'mock', ...args];
  const [command, ...before] = [...prefix, process.execPath];
  const child = spawn(command as string, [...before, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    for (const waiter of waiters.slice()) waiter();
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitForOutput = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(stdout)) return;
        waiters.splice(waiters.indexOf(check), 1);
        resolve(stdout);
      };
      waiters.push(check);
      check();
      void exited.then(() => reject(new Error(`the mock ended before printing ${pattern}: ${stderr}`)));
    });
  // https:// under --tls.
  const url = waitForOutput(/https?:\/\/127\.0\.0\.1:\d+/).then(
    (text) => /https?:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0] as string,
  );
  url.catch(() => undefined); // a test that expects an early exit never awaits it
  return { url, child, exited, stdout: () => stdout, stderr: () => stderr, waitForOutput };
}
