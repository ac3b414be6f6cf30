// The SDK, the CLI and `verify` against `profile-articles-mock --tls` (`pnpm build` first), each
// in a process of its own that trusts the certificate through NODE_EXTRA_CA_CERTS (Node reads
// it only at start-up). They reach the mock by this machine's own name, a non-loopback
// --allow-host name: over https none of them warns of plain http, which each does for the same
// name over http.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BIN, MOCK_BIN } from '@profile-articles/test-utils/mock-bins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SDK = fileURLToPath(new URL('../../sdk/dist/node.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mock-tls-clients-'));
const CERT = join(dir, 'cert.pem');
const NAME = hostname().toLowerCase();

/** Where this machine's own name leads, or undefined when it leads nowhere (then the tests skip). */
const address = await lookup(NAME).then(
  (found) => found.address,
  () => undefined,
);
const usable = address !== undefined && NAME !== 'localhost' && !NAME.endsWith('.localhost');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    // Only what the child needs: no key, origin or CA of the machine running the tests leaks in.
    const childEnv = { PATH: process.env.PATH ?? '', HOME: dir, PROFILE_ARTICLES_CONFIG_DIR: dir, ...env };
    execFile(process.execPath, args, { env: childEnv }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** The SDK in a child: the warnings its logger heard, and what `body` returned. */
async function sdk(baseUrl: string, body: string, trust = true): Promise<Run> {
  const script = join(dir, `sdk-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    script,
    `import { ProfileArticles } from ${JSON.stringify(SDK)};
const warnings = [];
const logger = { debug() {}, info() {}, warn: (line) => warnings.push(line), error: (line) => warnings.push(line) };
const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: process.argv[2], logger, pollIntervalMs: 20 });
let result;
try { result = await (async () => { ${body} })(); } catch (error) { result = { error: error.name, message: error.message }; }
process.stdout.write(JSON.stringify({ warnings, result }));`,
  );
  return run([script, baseUrl], trust ? { NODE_EXTRA_CA_CERTS: CERT } : {});
}

describe.runIf(usable)(`clients over https to this machine's name (${NAME})`, () => {
  let mock: ChildProcess | undefined;
  let port: string;
  beforeAll(async () => {
    // Bound where the name leads (loopback here unless the name leads to another address of
    // this machine), the name allowed and so in the certificate. One mock for the file's tests.
    const child = spawn(
      process.execPath,
      [
        MOCK_BIN,
        ...['--port', '0', '--no-log', '--queued-ms', '0', '--running-ms', '0'],
        ...['--tls', '--tls-cert-out', CERT, '--allow-host', NAME],
        ...(address === '127.0.0.1' ? [] : ['--host', address as string]),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    mock = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Demo account')) resolve();
      });
      child.once('exit', () => reject(new Error(`the mock ended: ${out}`)));
    });
    port = /listening on https:\/\/\S+:(\d+)/.exec(out)?.[1] as string;
  });
  afterAll(() => {
    mock?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const origin = () => `https://${NAME}:${port}`;

  it('the SDK generates and reads an article, trusting the certificate, and warns of nothing', async () => {
    const done = await sdk(
      origin(),
      `const made = await client.articles.generateAndWait('ada-lovelace');
       const { article } = await client.articles.read('ada-lovelace');
       return { same: made.content === article.content, content: article.content, credits: (await client.credits.balance()).credits };`,
    );
    expect(done.stderr).toBe('');
    const { warnings, result } = JSON.parse(done.stdout);
    expect(result).toMatchObject({ same: true, content: expect.any(String), credits: 899 });
    expect(warnings).toEqual([]);
  });

  it('the SDK warns of plain http for the same name over http, and refuses the certificate untrusted', async () => {
    const plain = JSON.parse((await sdk(`http://${NAME}:${port}`, 'return null;')).stdout);
    expect(plain.warnings).toEqual([
      `http://${NAME}:${port} is plain http to another machine: your API key travels unencrypted. Use https.`,
    ]);
    const untrusted = JSON.parse(
      (await sdk(origin(), 'return await client.credits.balance();', false)).stdout,
    );
    expect(untrusted.result.error).toMatch(/Error$/);
    expect(untrusted.result.credits).toBeUndefined();
  });

  it('the CLI reads the balance over https without a warning, and warns for the name over http', async () => {
    const env = { PROFILE_ARTICLES_API_KEY: 'demo-key', NODE_EXTRA_CA_CERTS: CERT };
    const over = await run([CLI_BIN, 'credits', '--json'], { ...env, PROFILE_ARTICLES_BASE_URL: origin() });
    expect(over.stderr).toBe('');
    expect(over.code).toBe(0);
    expect(JSON.parse(over.stdout)).toMatchObject({ credits: expect.any(Number) });
    const plain = await run([CLI_BIN, 'credits', '--json'], {
      ...env,
      PROFILE_ARTICLES_BASE_URL: `http://${NAME}:${port}`,
    });
    expect(plain.stderr).toContain(`http://${NAME}:${port} is plain http to another machine`);
    // Without the certificate trusted: one line on stderr, exit 1, no stack.
    const untrusted = await run([CLI_BIN, 'credits'], {
      PROFILE_ARTICLES_API_KEY: 'demo-key',
      PROFILE_ARTICLES_BASE_URL: origin(),
    });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).not.toMatch(/\n\s+at /);
  });

  it('verify passes its free checks over https, warning of nothing', async () => {
    const checked = await run([MOCK_BIN, 'verify', '--base-url', origin()], {
      PROFILE_ARTICLES_API_KEY: 'demo-key',
      NODE_EXTRA_CA_CERTS: CERT,
    });
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('0 failed');
  });
});
