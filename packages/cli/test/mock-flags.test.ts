// `profile-articles mock` and the mock's own bin take the same flags, declared once
// (MOCK_FLAGS), read with the same rules and wording (parseMockArgs, as commander words it),
// checked by one function (mockOptionsFromFlags) and mapped by one start-failure mapping
// (mockStartFailure): the same bad input gets the same exit code and message from both.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HOST, DEFAULT_PORT } from '@profile-articles/mock-server';
import { flagSpelling, MOCK_FLAGS } from '@profile-articles/mock-server/flags';
import { defaultOptions } from '@profile-articles/sdk/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/program.js';
import { processIo } from '../src/terminal/io.js';
import { runInProcess } from './helpers.js';

const MOCK_BIN = fileURLToPath(new URL('../../mock-server/dist/bin.js', import.meta.url));

function runBin(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MOCK_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const dir = mkdtempSync(join(tmpdir(), 'mock-flags-'));
const badConfig = join(dir, 'bad.json');
writeFileSync(
  badConfig,
  JSON.stringify({ accounts: [{ id: 'acme', apiKeys: ['test-key'], credits: 'lots' }] }),
);

let busy: Server;
let busyPort = 0;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe('profile-articles mock and profile-articles-mock agree', () => {
  const cases: Array<[string, () => string[]]> = [
    ['a port that is not a number', () => ['--port', 'abc']],
    ['a port out of range', () => ['--port', '99999']],
    ['an empty admin token', () => ['--port', '0', '--admin-token', '']],
    ['a host name with a space', () => ['--port', '0', '--allow-host', 'a b']],
    ['a config file that does not exist', () => ['--port', '0', '--config', join(dir, 'missing.json')]],
    ['a config with a wrong field', () => ['--port', '0', '--config', badConfig]],
    ['a port in use', () => ['--port', String(busyPort)]],
    ['a job timing that is not a whole number', () => ['--port', '0', '--queued-ms', '-1']],
    ['--data-recover without a data folder', () => ['--port', '0', '--data-recover']],
    ['--data-recover given a value', () => ['--port', '0', '--data-recover=yes']],
  ];
  for (const [name, args] of cases) {
    it(name, async () => {
      const [cli, bin] = await Promise.all([runInProcess(['mock', ...args()]), runBin(args())]);
      expect(bin.code, bin.stderr).not.toBe(0);
      expect(cli.code, cli.stderr).toBe(bin.code);
      // The bin writes the message bare; the CLI, as for every error, after "Error: ".
      const message = bin.stderr.split('\n')[0] ?? '';
      expect(cli.stderr.split('\n')[0]).toBe(`Error: ${message}`);
    });
  }

  const usageCases: Array<[string, string[]]> = [
    ['an unknown flag', ['--bogus']],
    ['an unknown short flag', ['-x']],
    ['a flag without its value', ['--port']],
    ['a flag taking the next flag as its value, as commander does', ['--config', '--port', '0']],
    ['an argument the mock does not take', ['extra']],
    ['a switch given a value', ['--log=yes']],
  ];
  for (const [name, args] of usageCases) {
    it(`${name}: usage error 2 from both, in the same words`, async () => {
      const [cli, bin] = await Promise.all([runInProcess(['mock', ...args]), runBin(args)]);
      expect([cli.code, bin.code]).toEqual([2, 2]);
      const [message, hint] = bin.stderr.split('\n');
      expect(cli.stderr.split('\n').slice(0, 2)).toEqual([
        `Error: ${message}`,
        hint?.replace('profile-articles-mock', 'profile-articles mock'),
      ]);
    });
  }

  it('the same flags: the CLI declares every flag of the bin, short forms too, and no other', () => {
    const mock = buildProgram(processIo(), () => {}).commands.find((command) => command.name() === 'mock');
    const declared = mock?.options.map((option) => option.flags).sort();
    expect(declared).toEqual(MOCK_FLAGS.map(flagSpelling).sort());
  });

  it('the short forms work in both', async () => {
    const cli = await runInProcess(['mock', '-p', '99999']);
    const bin = await runBin(['-p', '99999']);
    expect([cli.code, bin.code]).toEqual([2, 2]);
    expect(cli.stderr.split('\n')[0]).toBe(`Error: ${bin.stderr.split('\n')[0]}`);
  });

  it('the help states the defaults the code uses', () => {
    // Help is built without loading the SDK or the mock, so it spells them out; this keeps them true.
    const program = buildProgram(processIo(), () => {});
    const mock = program.commands.find((command) => command.name() === 'mock');
    const help = (name: string, options = mock?.options ?? []) =>
      options.find((option) => option.long === name)?.description ?? '';
    expect(help('--port')).toContain(`default ${DEFAULT_PORT}`);
    expect(help('--host')).toContain(`default ${DEFAULT_HOST}`);
    expect(help('--poll-interval', program.options)).toContain(
      `default ${defaultOptions.pollIntervalMs / 1000}`,
    );
  });
});
