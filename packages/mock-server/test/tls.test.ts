// --tls on both bins (`pnpm build` first): HTTPS on the port the URL names, with a certificate
// made at start and written (0644, no key in it) where --tls-cert-out says; curl trusts it from
// that file and only from it; --tls-cert/--tls-key serve the user's own pair; the flags' and the
// files' mistakes are refused at start. Every test names its own --tls-cert-out: two mocks
// without it share the default file.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MOCK_BIN_KINDS, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { selfSignedCertificate } from '@profile-articles/test-utils/tls-front';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'mock-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const certOut = () => join(dir, `cert-${++files}.pem`);

/** curl's exit code and output: 0 and the body when it trusted the server. */
async function curl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('curl', ['-sS', ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.each(MOCK_BIN_KINDS)('%s --tls', (kind) => {
  it('serves HTTPS on the port, its certificate in --tls-cert-out (0644, no key), trusted by curl from that file', async () => {
    const file = certOut();
    const mock = startMockBin(kind, ['--port', '0', '--no-log', '--tls', '--tls-cert-out', file]);
    const url = await mock.url;
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    // The CLI's next steps, ending in how to stop it, come after the demo account's line.
    const out = await mock.waitForOutput(kind === 'profile-articles mock' ? /Stop it with/ : /Demo account/);
    expect(out).toContain(`Dashboard: ${url}/_mock/`);
    expect(out).toContain(`TLS certificate: ${file} (clients trust it with NODE_EXTRA_CA_CERTS=${file})`);
    if (kind === 'profile-articles mock') expect(out).toContain(`export NODE_EXTRA_CA_CERTS=${file}`);

    expect(statSync(file).mode & 0o777).toBe(0o644);
    const pem = readFileSync(file, 'utf8');
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/);
    expect(pem).not.toContain('PRIVATE KEY');
    // Nothing else left beside it: the temporary was renamed into place.
    expect(readdirSync(dir).filter((name) => name.includes(`cert-${files}.pem`))).toEqual([
      `cert-${files}.pem`,
    ]);
    const cert = new X509Certificate(pem);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    expect(cert.ca).toBe(false);

    const balance = await curl([
      '--cacert',
      file,
      '-H',
      'authorization: Bearer demo-key',
      `${url}/api/v1/credits`,
    ]);
    expect(balance.code).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ credits: 1000 });
    const named = await curl(['--cacert', file, `${url.replace('127.0.0.1', 'localhost')}/_mock/stats`]);
    expect(named.code).toBe(0);
    // Without the certificate, curl refuses the server (60: the peer's certificate is not trusted).
    expect((await curl([`${url}/api/v1/credits`])).code).toBe(60);
    // Plain http to the same port is not served.
    expect((await curl([`${url.replace('https:', 'http:')}/api/v1/credits`])).stdout).not.toContain(
      'credits',
    );
  });

  it('refuses a --tls-cert-out file that another user owns, naming the flag (exit 1)', async () => {
    // As root, a file given to nobody; as anyone else, a file root owns.
    const file = process.getuid?.() === 0 ? certOut() : '/etc/hostname';
    if (process.getuid?.() === 0) {
      writeFileSync(file, 'not mine\n');
      chownSync(file, 65534, 65534);
    }
    const mock = startMockBin(kind, ['--port', '0', '--tls', '--tls-cert-out', file]);
    expect(await mock.exited).toBe(1);
    expect(mock.stderr()).toContain(`--tls-cert-out ${file} belongs to another user`);
    expect(mock.stdout()).not.toContain('listening');
    if (process.getuid?.() === 0) expect(readFileSync(file, 'utf8')).toBe('not mine\n');
  });

  it('serves your own certificate with --tls-cert and --tls-key, writing none', async () => {
    const pair = await selfSignedCertificate();
    const cert = join(dir, `own-${kind.length}.pem`);
    const key = join(dir, `own-${kind.length}.key`);
    writeFileSync(cert, pair.cert);
    writeFileSync(key, pair.key, { mode: 0o600 });
    const mock = startMockBin(kind, ['--port', '0', '--no-log', '--tls-cert', cert, '--tls-key', key]);
    const url = await mock.url;
    expect(url).toMatch(/^https:/);
    expect(await mock.waitForOutput(/Demo account/)).not.toContain('TLS certificate:');
    const balance = await curl([
      '--cacert',
      cert,
      '-H',
      'authorization: Bearer demo-key',
      `${url}/api/v1/credits`,
    ]);
    expect(JSON.parse(balance.stdout)).toMatchObject({ credits: 1000 });
  });

  it('refuses a key that is not the certificate’s (exit 1), and a flag missing its partner (exit 2)', async () => {
    const [one, other] = [await selfSignedCertificate(), await selfSignedCertificate()];
    const cert = join(dir, `mismatch-${kind.length}.pem`);
    const key = join(dir, `mismatch-${kind.length}.key`);
    writeFileSync(cert, one.cert);
    writeFileSync(key, other.key);
    const mismatched = startMockBin(kind, ['--port', '0', '--tls-cert', cert, '--tls-key', key]);
    expect(await mismatched.exited).toBe(1);
    expect(mismatched.stderr()).toContain(`--tls-cert ${cert} and --tls-key ${key} are not`);
    const missing = startMockBin(kind, [
      '--port',
      '0',
      '--tls-cert',
      join(dir, 'nowhere.pem'),
      '--tls-key',
      key,
    ]);
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toContain(`Cannot read --tls-cert ${join(dir, 'nowhere.pem')}: ENOENT`);
    const alone = startMockBin(kind, ['--port', '0', '--tls-cert', cert]);
    expect(await alone.exited).toBe(2);
    expect(alone.stderr()).toContain('Give --tls-cert and --tls-key together');
    const outWithoutTls = startMockBin(kind, ['--port', '0', '--tls-cert-out', certOut()]);
    expect(await outWithoutTls.exited).toBe(2);
    expect(outWithoutTls.stderr()).toContain('--tls-cert-out needs --tls');
  });
});

describe('the certificate --tls makes', () => {
  it('names a non-wildcard --host and every --allow-host name, never a wildcard address', async () => {
    const first = certOut();
    const bound = startMockBin('profile-articles-mock', [
      ...['--port', '0', '--no-log', '--tls', '--tls-cert-out', first],
      ...['--host', '127.0.0.2', '--allow-host', 'mock.internal', '--allow-host', '10.9.8.7'],
    ]);
    await bound.waitForOutput(/TLS certificate/);
    expect(new X509Certificate(readFileSync(first)).subjectAltName).toBe(
      'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost, IP Address:127.0.0.2, DNS:mock.internal, IP Address:10.9.8.7',
    );
    bound.child.kill('SIGTERM');
    expect(await bound.exited).toBe(0);

    const second = certOut();
    const everywhere = startMockBin('profile-articles-mock', [
      ...['--port', '0', '--no-log', '--tls', '--tls-cert-out', second, '--host', '0.0.0.0'],
    ]);
    await everywhere.waitForOutput(/TLS certificate/);
    everywhere.child.kill('SIGTERM');
    expect(new X509Certificate(readFileSync(second)).subjectAltName).toBe(
      'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost',
    );
  });
});

describe('the default --tls-cert-out', () => {
  it('is profile-articles-mock-cert.pem in the temporary folder, 0644 under any umask; a second mock replaces it', async () => {
    // The temporary folder of these mocks alone (TMPDIR): the machine's shared default file is
    // never touched by a test.
    const tmp = mkdtempSync(join(dir, 'tmpdir-'));
    const env = { ...process.env, TMPDIR: tmp };
    const strict = ['bash', '-c', 'umask 077; exec "$0" "$@"'];
    const file = join(tmp, 'profile-articles-mock-cert.pem');
    const first = startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--tls'], env, strict);
    const firstUrl = await first.url;
    expect(await first.waitForOutput(/Demo account/)).toContain(`TLS certificate: ${file} `);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect((await curl(['--cacert', file, `${firstUrl}/_mock/stats`])).code).toBe(0);

    // Two mocks without --tls-cert-out share the file: the later start's certificate replaces
    // the first one's, which its clients then no longer trust.
    const second = startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--tls'], env, strict);
    const secondUrl = await second.url;
    await second.waitForOutput(/Demo account/);
    expect((await curl(['--cacert', file, `${secondUrl}/_mock/stats`])).code).toBe(0);
    expect((await curl(['--cacert', file, `${firstUrl}/_mock/stats`])).code).not.toBe(0);
    expect(readdirSync(tmp)).toEqual(['profile-articles-mock-cert.pem']);
  });
});

describe('a relative --tls-cert-out', () => {
  it('is written from the folder the mock started in, and printed whole', async () => {
    const from = mkdtempSync(join(dir, 'cwd-'));
    const inFolder = ['bash', '-c', `cd ${from} && exec "$0" "$@"`];
    const mock = startMockBin(
      'profile-articles-mock',
      ['--port', '0', '--no-log', '--tls', '--tls-cert-out', 'mock-cert.pem'],
      process.env,
      inFolder,
    );
    const file = join(from, 'mock-cert.pem');
    expect(await mock.waitForOutput(/Demo account/)).toContain(`NODE_EXTRA_CA_CERTS=${file})`);
    expect((await curl(['--cacert', file, `${await mock.url}/_mock/stats`])).code).toBe(0);
  });
});
