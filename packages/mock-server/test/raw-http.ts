// One raw HTTP/1.1 exchange, for tests that need exactly the bytes fetch would not send
// (a repeated header, a malformed Host): the request ends with `Connection: close`, so the
// whole answer is what arrives before the socket ends.
import { connect } from 'node:net';

export interface SocketAnswer {
  status: number;
  type: string;
  body: string;
}

/** Sends `request` (request line, headers and body, as written) and reads the whole answer. */
export async function rawExchange(port: number, request: string): Promise<SocketAnswer> {
  const [head = '', body = ''] = (await rawAnswer(port, request)).split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    type: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
    body,
  };
}

/** Sends `request` as written and gives the answer's bytes (as latin1 text), head and body. */
export function rawAnswer(port: number, request: string): Promise<string> {
  return sendInPieces(port, [Buffer.from(request)], 0);
}

/**
 * Writes `pieces` one after another, `gapMs` apart, on one connection (Nagle off, so each goes
 * out when written) and gives the whole answer as `rawAnswer` does.
 */
export function sendInPieces(port: number, pieces: Buffer[], gapMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(data));
    const write = (i: number) => {
      if (i === pieces.length) return;
      socket.write(pieces[i] as Buffer);
      setTimeout(() => write(i + 1), gapMs);
    };
    socket.once('connect', () => write(0));
  });
}
