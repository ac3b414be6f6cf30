// Node's http diagnostics channels report every request of the whole test process: another
// test's server, or a request still in flight from a test that already ended (one that timed
// out keeps running), lands there too. A test that counts requests must count only its own,
// so these observe the requests of one server, or to one origin.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';

/** What `http.server.request.start` carries. */
export interface ServerRequestStart {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * Calls `onRequest` for each request the server listening on `port` starts, until the returned
 * function is called.
 */
export function watchServerRequests(
  port: number,
  onRequest: (start: ServerRequestStart) => void,
): () => void {
  const listener = (message: unknown) => {
    const start = message as ServerRequestStart;
    if (start.request.socket.localPort === port) onRequest(start);
  };
  subscribe('http.server.request.start', listener);
  return () => unsubscribe('http.server.request.start', listener);
}

/** The requests node:http sends to `origin` (its scheme, host and port) while `work` runs. */
export async function clientRequestsDuring(origin: string, work: () => Promise<unknown>): Promise<number> {
  const { host } = new URL(origin);
  let count = 0;
  const listener = (message: unknown) => {
    // The Host header, the request's own or the one node:http fills in from its options.
    if ((message as { request: ClientRequest }).request.getHeader('host') === host) count++;
  };
  subscribe('http.client.request.start', listener);
  try {
    await work();
  } finally {
    unsubscribe('http.client.request.start', listener);
  }
  return count;
}
