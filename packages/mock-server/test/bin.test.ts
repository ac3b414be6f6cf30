import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALL_ESCAPES,
  CLIPBOARD_PAYLOAD,
  hostile,
  TERMINAL_CONTROLS,
} from '@profile-articles/test-utils/hostile-strings';
import { rawRequest } from '@profile-articles/test-utils/raw-request';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (match) resolve(match[0]);
    });
    child.on('exit', () => reject(new Error(`exited: ${stderr}`)));
  });
  // Tests that expect an early exit never await the URL.
  url.catch(() => undefined);
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

function writeConfigText(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mock-bin-'));
  const path = join(dir, 'config.json');
  writeFileSync(path, text);
  return path;
}

const writeConfig = (config: unknown) => writeConfigText(JSON.stringify(config));

describe('profile-articles-mock', () => {
  it('prints its URL, serves the configured accounts and stops on SIGTERM with code 0', async () => {
    const config = writeConfig({ accounts: [{ id: 'acme', apiKeys: ['key-0001'], credits: 42 }] });
    const mock = run(['--port', '0', '--config', config]);
    const url = await mock.url;
    const answer = await fetch(`${url}/api/v1/credits`, { headers: { authorization: 'Bearer key-0001' } });
    expect(answer.status).toBe(200);
    expect((await answer.json()).credits).toBe(42);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('stops on SIGINT with code 0 and runs the demo account without a config', async () => {
    const mock = run(['--port', '0']);
    const url = await mock.url;
    const answer = await fetch(`${url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } });
    expect((await answer.json()).credits).toBe(1000);
    mock.child.kill('SIGINT');
    expect(await mock.exited).toBe(0);
  });

  it('stops with code 0 on a SIGTERM sent the moment it prints its URL (before its service has loaded)', async () => {
    const mock = run(['--port', '0']);
    await mock.url;
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('refuses a bad config with a message naming the field', async () => {
    const config = writeConfig({ accounts: [{ id: 'acme', apiKeys: ['test-key'], credits: 'lots' }] });
    const mock = run(['--port', '0', '--config', config]);
    expect(await mock.exited).toBe(1);
    expect(mock.output().stderr).toContain('accounts.0.credits');
    expect(mock.output().stderr).not.toMatch(/\n\s+at /);
  });

  // A config file or an argument may come from anywhere (a download, a script): what the bin
  // quotes of it reaches the terminal without its escape sequences, on the one line it said.
  it('quotes a config or a flag full of escape sequences without them', async () => {
    const twice = { id: hostile('acme'), apiKeys: ['test-key-1'], credits: 1 };
    const runs = [
      run([
        '--port',
        '0',
        '--config',
        writeConfig({ accounts: [twice, { ...twice, apiKeys: ['test-key-2'] }] }),
      ]),
      run(['--port', '0', '--config', writeConfigText(`${ALL_ESCAPES}{}`)]),
      // An argument cannot hold NUL: every other attack.
      run(['--port', `80${ALL_ESCAPES.replace('\u0000', '')}`]),
    ];
    for (const [index, mock] of runs.entries()) {
      expect(await mock.exited).toBe(index === 2 ? 2 : 1);
      const { stdout, stderr } = mock.output();
      expect(stdout + stderr).not.toMatch(TERMINAL_CONTROLS);
      expect(stderr).not.toContain(CLIPBOARD_PAYLOAD);
    }
    expect(runs[0]!.output().stderr).toMatch(
      /^Invalid mock config: accounts\.1\.id: "acme.*" is used twice\n$/,
    );
  });

  it('refuses a bad port as usage error 2', async () => {
    const mock = run(['--port', 'abc']);
    expect(await mock.exited).toBe(2);
    expect(mock.output().stderr).toContain('--port');
  });

  it('takes --admin-token for /_mock/* and --allow-host for the Host check', async () => {
    const mock = run([
      '--port',
      '0',
      '--admin-token',
      'adm',
      '--allow-host',
      'mock.internal',
      '--allow-host',
      'box',
    ]);
    const url = await mock.url;
    expect((await fetch(`${url}/_mock/requests`)).status).toBe(401);
    const admin = await fetch(`${url}/_mock/requests`, { headers: { authorization: 'Bearer adm' } });
    expect(admin.status).toBe(200);
    const key = { authorization: 'Bearer demo-key' };
    expect((await rawRequest(url, 'GET', '/api/v1/credits', { ...key, host: 'box:8080' })).status).toBe(200);
    expect((await rawRequest(url, 'GET', '/api/v1/credits', { ...key, host: 'evil.example' })).status).toBe(
      421,
    );
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it('warns on stderr that the mock has no real security when it listens beyond loopback', async () => {
    // The port is taken on 127.0.0.1, so binding 0.0.0.0 fails: the warning comes first,
    // and nothing is ever served beyond this machine.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const mock = run(['--port', String(port), '--host', '0.0.0.0']);
      expect(await mock.exited).toBe(1);
      expect(mock.output().stderr).toMatch(/listens on 0\.0\.0\.0.*no real security/);
    } finally {
      taken.close();
    }
  });

  it('refuses an empty --admin-token as usage error 2', async () => {
    const mock = run(['--admin-token', '']);
    expect(await mock.exited).toBe(2);
    expect(mock.output().stderr).toContain('--admin-token');
  });
});
