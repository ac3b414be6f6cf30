// `--tls`: the certificate the mock makes at start, the file clients trust it from, and
// `--tls-cert`/`--tls-key` read. Node can serve TLS but cannot issue an X.509 certificate, so
// `selfsigned` (over WebCrypto, no binary) signs one; it is loaded only when --tls asks for it.
// The key never leaves memory: only the certificate, which holds no secret, is written.
import * as fs from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { replaceFileDurably } from '../data/durable-file.js';
import { ConfigError } from '../rules/config-error.js';

/** What node:https serves: PEM text. */
interface TlsPair {
  cert: string;
  key: string;
}

/** The file's name in the system's temporary folder when --tls-cert-out is not given. */
const DEFAULT_CERT_FILE = 'profile-articles-mock-cert.pem';

/** The one file of the mock others may read (a client's NODE_EXTRA_CA_CERTS): it holds no secret. */
const CERT_MODE = 0o644;

export function defaultCertPath(): string {
  return join(tmpdir(), DEFAULT_CERT_FILE);
}

/** The addresses that mean every interface: no client connects to them by that name. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The names the certificate is for: loopback, the listening address unless it is a wildcard,
 * and every name the mock is allowed to answer to (where a container or a LAN reaches it).
 */
export function certificateNames(host: string, allowHosts: readonly string[]): string[] {
  const names = ['127.0.0.1', '::1', 'localhost'];
  for (const raw of [host, ...allowHosts]) {
    // IPv6 is written in brackets in a URL and in --host; the certificate holds the address.
    const name = raw.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    if (!WILDCARDS.has(name) && !names.includes(name)) names.push(name);
  }
  return names;
}

/** An EC P-256 certificate for `names`, signed by its own key, valid from an hour ago for a year. */
export async function makeCertificate(names: readonly string[]): Promise<TlsPair> {
  const { generate } = await import('selfsigned');
  // An hour back: a client whose clock is a little behind still takes it.
  const notBeforeDate = new Date(Date.now() - 3_600_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 365 * 86_400_000);
  const pems = await generate([{ name: 'commonName', value: 'profile-articles mock' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      // A server's certificate, not an authority: trusting it trusts nothing it could sign.
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * Writes the certificate to `path` through an exclusive temporary and a rename, mode 0644.
 * A file there that another user owns is refused: in a shared temporary folder it may be a
 * certificate someone else's clients trust, or one planted for this mock's clients to trust.
 */
export function writeCertificate(path: string, cert: string): void {
  const uid = process.getuid?.();
  let owner: number | undefined;
  try {
    owner = fs.lstatSync(path).uid;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw certOutError(path, error);
  }
  if (owner !== undefined && uid !== undefined && owner !== uid)
    throw new ConfigError(
      `--tls-cert-out ${path} belongs to another user (uid ${owner}): name a file of your own with --tls-cert-out`,
    );
  // A name of its own: two mocks writing the default file at once never share a temporary.
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    replaceFileDurably(path, cert, temporary, CERT_MODE);
  } catch (error) {
    throw certOutError(path, error);
  }
}

function certOutError(path: string, error: unknown): ConfigError {
  return new ConfigError(
    `Cannot write --tls-cert-out ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
  );
}

/** `--tls-cert FILE --tls-key FILE`: the user's own pair, read as they are. */
export function readOwnPair(certPath: string, keyPath: string): TlsPair {
  const read = (flag: string, path: string) => {
    try {
      return fs.readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `Cannot read ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  };
  return { cert: read('--tls-cert', certPath), key: read('--tls-key', keyPath) };
}
