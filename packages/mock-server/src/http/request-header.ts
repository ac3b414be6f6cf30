// A request header as `Request.headers.get` gives it, read from the transport when it offers
// one: the node adapter reads the IncomingMessage's own headers, because building a WHATWG
// Headers for every request cost the mock more than any of its rules.
import type { Context } from 'hono';
import type { Transport } from './transport.js';

export function requestHeader(c: Context, name: string): string | undefined {
  const read = (c.env as Transport | undefined)?.header;
  return read ? read(name) : c.req.header(name);
}
