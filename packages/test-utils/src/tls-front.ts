// HTTPS in front of a plain-http test server (the real mock, a scripted server): a TLS
// listener on 127.0.0.1 with a self-signed certificate made for the test, whose connections
// are piped to the server's port once decrypted. The server behind it is unchanged, so a
// client over https meets exactly the answers it would over http.
import { type AddressInfo, connect, type Socket } from 'node:net';
import { createServer } from 'node:tls';
import { generate } from 'selfsigned';

export interface TlsFront {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** The certificate (PEM) a client must trust: NODE_EXTRA_CA_CERTS or a `ca` option. */
  cert: string;
  close(): Promise<void>;
}

/** A certificate for 127.0.0.1, localhost and `names`, valid for a day. */
export async function selfSignedCertificate(names: readonly string[] = []) {
  const notAfterDate = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      // A trust anchor of its own, as `openssl req -x509` makes one.
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          ...names.map((value) => ({ type: 2 as const, value })),
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** TLS on a port of its own, relayed to `targetPort` on 127.0.0.1. `names`: more names the certificate covers. */
export async function tlsFront(targetPort: number, names: readonly string[] = []): Promise<TlsFront> {
  const { key, cert } = await selfSignedCertificate(names);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer({ key, cert }, (secure) => {
    const plain = connect(targetPort, '127.0.0.1');
    track(plain);
    secure.pipe(plain).pipe(secure);
    secure.once('close', () => plain.destroy());
    plain.once('close', () => secure.destroy());
  });
  // Every connection from its first byte, handshakes that never finish included.
  server.on('connection', track);
  // A client that refuses the certificate ends the handshake: not the test's failure.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    cert,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
