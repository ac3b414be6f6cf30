// The SDK's default `fetch` on Node (src/node.ts): the requests the SDK makes, sent over
// node:http and node:https with their keep-alive global agents. Node's own fetch (undici) builds
// a Request and runs the whole fetch algorithm on every call; this sends the attempt's URL and
// init as they are (`sendWithin`, see timed-send.ts) and answers a WHATWG Response whose body
// streams the IncomingMessage. What the SDK relies on from fetch is kept: the body streams (the
// SDK reads it under its time limit and byte cap), the signal aborts it before and after
// headers, a failure before an answer rejects with TypeError('fetch failed') whose cause carries
// the system error's code (ECONNREFUSED…: attempt.ts decides from it whether the request was
// sent), gzip, deflate and br are decoded, and the headers fetch adds are sent. Anything else
// (redirect modes other than 'manual', the only one the SDK asks for, or another scheme) goes
// to globalThis.fetch.
// The modules, not their named exports: `http.request` is read at each call, so what patches it
// (msw, nock, OpenTelemetry's instrumentation) sees the SDK's requests.
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { OWN_FETCH_FIELDS } from '../core/arguments.js';
import { InvalidArgumentError } from '../errors/errors.js';
import { startTimer } from '../retry/abort.js';
import type { Route } from './proxy.js';
import { type AttemptInit, SEND_WITHIN, type SendWithin, TIMED_OUT } from './timed-send.js';

/** How a client with a proxy reaches it (see proxy.ts); without one, Node's global agents. */
export type RouteFor = (secure: boolean) => Promise<Route>;

/**
 * The Fetch standard's null body statuses, whose Response has no body: 204, 205, 304 and the
 * 1xx (which node:http never hands over as an answer).
 */
const isNullBodyStatus = (status: number) =>
  status === 204 || status === 205 || status === 304 || status < 200;

/** undici's default connect timeout: a connection not made by then fails as not sent. */
const CONNECT_TIMEOUT_MS = 10_000;

const ZLIB_LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/** Whether `init` has a field node:http cannot honour: one beyond the SDK's own (a `fetchOptions` field). */
function hasFetchOnlyFields(init: object): boolean {
  for (const [key, value] of Object.entries(init)) {
    if (value !== undefined && !OWN_FETCH_FIELDS.includes(key)) return true;
  }
  return false;
}

/** What undici rejects with for a failure before the answer: the system error is the cause. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

/** What undici errors a body with when the connection breaks mid-body. */
const terminated = (cause: unknown) => new TypeError('terminated', { cause });

/** `Content-Encoding: deflate` is zlib-wrapped by the standard and raw by some servers: undici takes both. */
class Inflate extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.#inner) {
      if (chunk.length === 0) {
        callback();
        return;
      }
      // A zlib stream starts with a CMF byte whose low nibble is 8 (deflate).
      this.#inner =
        (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(ZLIB_LENIENT) : zlib.createInflateRaw(ZLIB_LENIENT);
      this.#inner.on('data', (data: Buffer) => this.push(data));
      this.#inner.on('error', (error) => this.destroy(error));
    }
    this.#inner.write(chunk, callback);
  }

  override _final(callback: TransformCallback): void {
    if (!this.#inner) {
      callback();
      return;
    }
    this.#inner.end();
    this.#inner.once('end', () => callback());
  }
}

/**
 * undici's limit on the codings of one answer: each layer is a decoder that a server could
 * stack by the thousand for nearly nothing (2,000 gzip layers cost one call 6.7 s of CPU).
 */
const MAX_CONTENT_CODINGS = 5;

/** The answer fails as undici fails it (before the Response, the request having been sent). */
const tooManyCodings = (count: number) =>
  Object.assign(
    new Error(
      `the answer's Content-Encoding lists ${count} codings, more than the ${MAX_CONTENT_CODINGS} the SDK decodes`,
    ),
    { code: 'ERR_TOO_MANY_CONTENT_CODINGS', explained: true },
  );

/**
 * The decoders for a Content-Encoding, outermost last, or none when one coding is unknown
 * (undici's rule); more codings than MAX_CONTENT_CODINGS (counted as undici does) throws.
 */
function decodersFor(contentEncoding: string): Transform[] {
  const decoders: Transform[] = [];
  const codings = contentEncoding.toLowerCase().split(',');
  if (codings.length > MAX_CONTENT_CODINGS) throw tooManyCodings(codings.length);
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(ZLIB_LENIENT));
    else if (coding === 'deflate') decoders.push(new Inflate());
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress(BROTLI_LENIENT));
    else if (coding !== '') return [];
  }
  return decoders;
}

/**
 * The body as a ReadableStream of Uint8Array, decoded, with backpressure: the message pauses
 * while the stream's queue is full. `done` runs once, when the body ended, failed or was
 * cancelled; `abort(reason)` errors the stream with the reason, as fetch does on an abort.
 */
function bodyStream(res: IncomingMessage, decoders: Transform[], done: () => void) {
  let source: Readable = res;
  let finished = false;
  let fail: (error: unknown) => void = () => {};
  let abort: (reason: unknown) => void = () => {};
  if (decoders.length > 0) {
    source = decoders[decoders.length - 1]!;
    pipeline([res, ...decoders], (error) => {
      if (error) fail(error);
    });
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const finish = () => {
          if (finished) return false;
          finished = true;
          done();
          return true;
        };
        fail = (error) => {
          if (finish()) controller.error(terminated(error));
          res.destroy();
        };
        abort = (reason) => {
          if (finish()) controller.error(reason);
          res.destroy();
        };
        source.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          if (finish()) controller.close();
        });
        source.once('error', fail);
        res.once('error', fail);
        // A connection closed before the last byte, without an error of its own.
        res.once('close', () => {
          if (!res.complete) fail(new Error('other side closed'));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finished = true;
        done();
        res.destroy();
      },
    },
    { highWaterMark: 16 },
  );
  return { stream, abort: (reason: unknown) => abort(reason) };
}

/** A failed connect fails as not sent, as undici's does after the same time. */
function limitConnect(req: ClientRequest, secure: boolean) {
  req.once('socket', (socket: Socket) => {
    if (!socket.connecting) return;
    const timer = startTimer(() => {
      const error = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
      req.destroy(error);
    }, CONNECT_TIMEOUT_MS);
    socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
}

/** A request as node:http sends it: from the SDK's attempt, or from a Request given to fetch. */
interface Outgoing {
  url: string;
  method: string;
  /** Lower-case names; `send` adds what undici would, to this object (each caller makes its own). */
  headers: Record<string, string>;
  body: Uint8Array | string | undefined;
  signal: AbortSignal | undefined;
}

async function fromRequest(request: Request): Promise<Outgoing> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    url: request.url,
    method: request.method,
    headers,
    body: request.body === null ? undefined : new Uint8Array(await request.arrayBuffer()),
    signal: request.signal,
  };
}

/**
 * Sends `out` over node:http(s), through the proxy `routeFor` gives when there is one.
 * With `timeoutMs`, a wait for headers longer than that closes the connection and rejects with
 * TIMED_OUT (the body's time is the caller's to bound).
 */
async function send(out: Outgoing, timeoutMs?: number, routeFor?: RouteFor): Promise<Response> {
  const started = Date.now();
  const secure = out.url.startsWith('https:');
  const { headers } = out;
  // The headers undici adds when absent, so the server sees the same request.
  headers.accept ??= '*/*';
  headers['accept-language'] ??= '*';
  headers['sec-fetch-mode'] ??= 'cors';
  headers['user-agent'] ??= 'node';
  headers['accept-encoding'] ??= secure ? 'br, gzip, deflate' : 'gzip, deflate';
  const { body } = out;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  // Without a body, node:http sends `Content-Length: 0` for the methods fetch sends it for.
  const route = await routeFor?.(secure);
  const { signal } = out;
  if (signal?.aborted) throw signal.reason;

  return new Promise<Response>((resolve, reject) => {
    let answered = false;
    let req: ClientRequest;
    let abortBody: ((reason: unknown) => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      req.destroy();
      if (abortBody) abortBody(signal?.reason);
      else if (!answered) reject(signal?.reason);
    };
    const onResponse = (res: IncomingMessage) => {
      answered = true;
      clearTimeout(timer);
      const status = res.statusCode ?? 0;
      // Name and value pairs as the server sent them; Response makes its Headers from them.
      const pairs: [string, string][] = [];
      let contentEncoding: string | undefined;
      const raw = res.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        const value = raw[i + 1]!;
        pairs.push([name, value]);
        if (name.length === 16 && name.toLowerCase() === 'content-encoding') {
          contentEncoding = contentEncoding === undefined ? value : `${contentEncoding}, ${value}`;
        }
      }
      const done = () => signal?.removeEventListener('abort', onAbort);
      let stream: ReadableStream<Uint8Array> | null = null;
      if (isNullBodyStatus(status) || out.method === 'HEAD') {
        res.once('end', done).once('close', done).once('error', done).resume();
      } else {
        let decoders: Transform[];
        try {
          decoders = contentEncoding ? decodersFor(contentEncoding) : [];
        } catch (error) {
          done();
          res.destroy();
          reject(fetchFailed(error));
          return;
        }
        const body = bodyStream(res, decoders, done);
        stream = body.stream;
        abortBody = body.abort;
      }
      try {
        const response = new Response(stream, {
          status,
          statusText: res.statusMessage ?? '',
          headers: pairs,
        });
        Object.defineProperty(response, 'url', { value: out.url });
        resolve(response);
      } catch (error) {
        // A status or reason phrase a Response cannot hold: the answer is unusable.
        done();
        res.destroy();
        reject(fetchFailed(error));
      }
    };
    try {
      req = (secure ? https : http).request(
        out.url,
        { method: out.method, headers, ...(route ? { agent: route.agent } : {}) },
        onResponse,
      );
    } catch (error) {
      reject(fetchFailed(error));
      return;
    }
    // The proxy agents say when the proxy took the connection (http) or answered CONNECT
    // (https): a failure before that is the proxy's. A refused tunnel would otherwise reach
    // the SDK as the proxy's own answer, as if the API had given it.
    let opened = false;
    // Not passed to destroy(): Node 22 and later emit no 'error' for a request destroyed with an
    // error coded ERR_PROXY_TUNNEL, which their own proxy support handles, and the call hung.
    let refusal: Error | undefined;
    if (route) {
      req.once('proxyConnect', (connect: { statusCode?: number; statusText?: string }) => {
        if (connect.statusCode === undefined || connect.statusCode === 200) opened = true;
        else {
          refusal = route.refused(connect.statusCode, connect.statusText ?? '');
          req.destroy();
        }
      });
    }
    req.on('error', (error) => {
      if (answered) return; // the body's stream reports it
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (!signal?.aborted) reject(fetchFailed(route ? route.failed(refusal ?? error, opened) : error));
    });
    limitConnect(req, secure);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) {
      timer = startTimer(
        () => {
          signal?.removeEventListener('abort', onAbort);
          answered = true; // the 'error' of the destroyed request is not a failure to report
          req.destroy();
          reject(TIMED_OUT);
        },
        timeoutMs - (Date.now() - started),
      );
    }
    req.end(body);
  });
}

/** Whether `send` carries this request; anything else goes to globalThis.fetch. */
const sendable = (url: string, redirect: RequestRedirect) =>
  (url.startsWith('http:') || url.startsWith('https:')) && redirect === 'manual';

/**
 * A `fetch` over node:http(s) for the requests the SDK makes (see the top of this file), through a
 * proxy when `routeFor` is given.
 */
export function createNodeFetch(routeFor?: RouteFor): typeof fetch {
  const nodeFetch: typeof fetch = (input, init) => {
    // RequestInit fields beyond the request's own (the client's `fetchOptions`) are fetch's to
    // honour: node:http knows none of them, so such a request goes to Node's fetch with them,
    // unless it must go through the proxy, which only node:http takes it to.
    if (init !== undefined && hasFetchOnlyFields(init)) {
      return routeFor ? Promise.reject(proxyRefusesFetchOptions()) : globalThis.fetch(input, init);
    }
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return sendable(request.url, request.redirect)
      ? fromRequest(request).then((out) => send(out, undefined, routeFor))
      : globalThis.fetch(request);
  };
  /**
   * The attempt's way in (see timed-send.ts): the SDK's requests are always sendable (an http
   * or https baseUrl, redirects manual), and anything else would have no time limit here.
   */
  const sendWithin: SendWithin = (url: string, init: AttemptInit, timeoutMs: number) => {
    if (!sendable(url, init.redirect)) throw new TypeError(`node:http cannot send ${init.method} ${url}`);
    const { method, headers, body, signal } = init;
    return send({ url, method, headers, body, signal: signal ?? undefined }, timeoutMs, routeFor);
  };
  Object.defineProperty(nodeFetch, SEND_WITHIN, { value: sendWithin });
  return nodeFetch;
}

/** fetchOptions are for a fetch; a client with `proxy` sends over node:http, which has none. */
export const proxyRefusesFetchOptions = () =>
  new InvalidArgumentError(
    'fetchOptions go to a fetch, and a client with proxy sends its requests over node:http through the proxy: leave one out',
  );

/** The Node entry's default fetch: node:http(s) with Node's global agents. */
export const nodeFetch = createNodeFetch();
