// What the --data tests share: a config with one account in a new temporary folder, the data
// folder's path beside it (not made: the mock makes it), and a call of the API with its key.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockBinKind, startMockBin } from '@profile-articles/test-utils/mock-bins';

export interface DataFolder {
  /** The temporary folder that holds both. */
  root: string;
  /** Where --data points; it does not exist yet. */
  dir: string;
  /** The config file: account `acme` with `apiKeys: [key]` and `credits`, jobs `phaseMs` per phase. */
  config: string;
}

export function dataFolder(prefix: string, key: string, credits: number, phaseMs: number): DataFolder {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const config = join(root, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      accounts: [{ id: 'acme', apiKeys: [key], credits }],
      jobs: { queuedMs: phaseMs, runningMs: phaseMs },
    }),
  );
  return { root, dir: join(root, 'data'), config };
}

/** `call(url, method, path, body?, idempotencyKey?)` with `key`; the answer's status and JSON. */
export const apiCaller =
  (key: string) =>
  async (url: string, method: string, path: string, body?: unknown, idempotencyKey?: string) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

/** The mock (either bin) on port 0 without --log, over `where`'s config and data folder. */
export const startWithData = (
  where: Pick<DataFolder, 'dir' | 'config'>,
  extra: readonly string[] = [],
  kind: MockBinKind = 'profile-articles-mock',
) => startMockBin(kind, ['--port', '0', '--no-log', '--config', where.config, '--data', where.dir, ...extra]);
