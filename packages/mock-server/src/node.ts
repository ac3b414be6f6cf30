// The node:http adapter: @hono/node-server's listener serves the service's fetch handler
// without building a WHATWG Request and Response per request where it can avoid it.
// @hono/node-server and the service are imported when the server starts, not with this
// module: they bring undici's WHATWG classes, node:http2 and zod, most of the mock's
// start-up, and the bin prints its URL before them (serveMock).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MockConfig, NormalizedConfig } from './config/config.js';
import { BODY_METHODS, MAX_BODY_BYTES } from './config/limits.js';
import type { RequestLogEntry } from './console/request-log.js';
import type { DataFolder } from './data/folder.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './flags.js';
import type { Transport } from './http/transport.js';
import type { AnyOutcome } from './operations/outcome.js';
import type { MockService, ServiceOptionsWithData } from './service.js';

export interface StartOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the mock is for this machine only. */
  host?: string;
  config?: MockConfig | NormalizedConfig;
  /** Serve an existing service instead of creating one from `config`. */
  service?: MockService;
  /** Hears of the mock's own errors (see MockServiceOptions.onError) when it creates the service. */
  onError?: (error: unknown) => void;
  /**
   * With `config.dataDir`: start from a journal.log with a damaged record before its end by
   * keeping every readable record, the damaged file kept as journal.log.bad-<ISO time>
   * (`--data-recover`). Without it such a start is refused.
   */
  dataRecover?: boolean;
  /** Hears what a --data folder's start found (a torn write cut off), one line each. */
  onNote?: (line: string) => void;
  /** Hears of every request once answered (or dropped): what `--log` prints. Costs nothing unset. */
  onRequest?: (entry: RequestLogEntry, service: MockService) => void;
  /**
   * Serve HTTPS on the port with this certificate and private key (PEM), instead of plain
   * http: the URL is then `https://…`. `profile-articles-mock --tls` makes a pair at start.
   */
  tls?: { cert: string; key: string };
}

export interface MockServer {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`): the base URL to give the SDK or CLI. */
  url: string;
  port: number;
  service: MockService;
  close(): Promise<void>;
}

/**
 * A host name or IP literal with an optional port. Anything else (empty, user info, a list,
 * a port that is not a number) cannot name this server; without this check the HTTP layer
 * would answer a bare text/plain 400 of its own.
 */
const WELL_FORMED_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d{1,5})?$/i;

/**
 * The pattern, and what @hono/node-server checks next (it refuses with a bare text/plain 400
 * what fails): the URL parser takes the Host (a port up to 65535, an IPv6 literal that parses)
 * and writes its name as the client did, but for case (127.1, [0:0::1] and 0x7f.1 it rewrites).
 */
function isWellFormedHost(host: string): boolean {
  if (!WELL_FORMED_HOST.test(host)) return false;
  try {
    const { hostname } = new URL(`http://${host}/`);
    return hostname.length === host.length || hostname === host.replace(/:\d+$/, '');
  } catch {
    return false;
  }
}

/** Set on a request whose body this adapter read whole, or that the fast lane passed on. */
interface ReadBody {
  bodyText?: string;
  /** The id the fast lane was given: the router answers with the same one. */
  requestId?: string;
}

// Decodes as Request.text() does (a leading BOM dropped, bad bytes replaced), so the
// service sees the same text whichever way the body reached it.
const utf8 = new TextDecoder();
const JSON_TYPE = /^application\/json\s*(;|$)/i;
const EMPTY_BODY = Buffer.alloc(0);

/**
 * The body's declared length when it is read here, in one piece: a JSON body that declares a
 * length within the limit. Handing the service the text skips building a WHATWG body stream,
 * the costliest part of a POST. A body of unknown length (chunked), over the limit or not JSON
 * gives undefined and takes the service's own streaming path, where the limit is enforced
 * without reading it all.
 */
/**
 * Gives a request the body length it turned out to have, in both views of its headers
 * (@hono/node-server builds its Request's from `rawHeaders`): a Content-Length, and no
 * Transfer-Encoding since the body has been read.
 */
function declareLength(req: IncomingMessage, length: number): void {
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    if (name !== 'transfer-encoding' && name !== 'content-length')
      raw.push(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  raw.push('content-length', String(length));
  req.rawHeaders = raw;
  delete req.headers['transfer-encoding'];
  req.headers['content-length'] = String(length);
}

/**
 * Reads a body sent without a Content-Length (chunked) whole, up to one byte past the limit:
 * `done` gets what was read, and a body past the limit is left unread after that byte.
 */
function readUnsized(req: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) return;
    req.off('data', onData);
    req.off('end', onEnd);
    req.pause();
    done(Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1));
  };
  const onEnd = () => done(Buffer.concat(chunks));
  req.on('data', onData);
  req.once('end', onEnd);
}

/**
 * A read the dashboard's own script makes (a GET of /_mock/ from a page of the mock's origin):
 * six of them for every change it is told of, which would drown the request log's other lines.
 * Only a browser sends Sec-Fetch-Site; the same read from curl or a test is logged.
 */
function isDashboardRead(req: IncomingMessage): boolean {
  return (
    req.method === 'GET' &&
    req.headers['sec-fetch-site'] === 'same-origin' &&
    (req.url ?? '').startsWith('/_mock/')
  );
}

function wholeBodyLength(req: IncomingMessage): number | undefined {
  const length = req.headers['content-length'];
  if (length === undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
  const declared = Number(length);
  const readHere =
    declared <= MAX_BODY_BYTES &&
    BODY_METHODS.has(req.method ?? '') &&
    // Only JSON is read through Transport.body; the Pay form is read from the Request itself.
    JSON_TYPE.test(req.headers['content-type'] ?? '');
  return readHere ? declared : undefined;
}

/**
 * A header as `Request.headers.get` gives it: every value of a repeated header joined with
 * ", " ("; " for Cookie, as undici joins them). Not `req.headers`: Node keeps only the first
 * of a repeated Authorization or Host there, which would change who a request is from.
 */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  // A scan of rawHeaders (name, value, name, value...): cheaper, for the handful of headers a
  // request carries, than the object of arrays `headersDistinct` builds from them.
  const lower = name.toLowerCase();
  const raw = req.rawHeaders;
  let joined: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const field = raw[i] as string;
    if (field.length !== lower.length || (field !== lower && field.toLowerCase() !== lower)) continue;
    const value = raw[i + 1] as string;
    joined = joined === undefined ? value : `${joined}${lower === 'cookie' ? '; ' : ', '}${value}`;
  }
  return joined;
}

/** The X-Request-Id among the headers given to writeHead: an object, or a list of pairs or of names and values. */
function requestIdIn(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    const flat = headers.flat() as unknown[];
    for (let i = 0; i < flat.length - 1; i += 2)
      if (String(flat[i]).toLowerCase() === 'x-request-id') return String(flat[i + 1]);
    return undefined;
  }
  if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === 'x-request-id') return String(value);
  }
  return undefined;
}

/** node:http's error for a request its parser refused: its code, and the bytes it had read. */
type ParseError = Error & { code?: string; rawPacket?: Buffer };

/**
 * What a parse refusal answers, as node:http itself would: 431 for headers past its limit, 413
 * for chunk extensions past it, 408 for a request too slow to arrive, 400 for the rest; with
 * the request line's method and path where it was read.
 */
function parseRefusal(error: ParseError): {
  status: 400 | 408 | 413 | 431;
  detail: string;
  target: { method: string; path: string };
} {
  const line = /^([A-Z]{1,20}) (\/[^\s?]*)\S* HTTP\/1\.[01]\r?\n/.exec(
    error.rawPacket?.toString('latin1', 0, 8192) ?? '',
  );
  const target = { method: line?.[1] ?? '-', path: line?.[2] ?? '-' };
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      detail:
        'The request headers are larger than the server takes (16 KiB in all): send fewer or shorter headers',
      target,
    };
  // node:http's own mapping, kept: chunk extensions past its limit, a request sent too slowly.
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return { status: 413, detail: "The body's chunk extensions are larger than the server takes", target };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      detail: 'The request was not received in time: send it whole, without pauses',
      target,
    };
  return {
    status: 400,
    detail: `The request is not HTTP/1.1 the server can read (${error.code ?? 'parse error'}): check its request line and headers`,
    target,
  };
}

export function startMockServer(options: StartOptions = {}): Promise<MockServer> {
  return serveMock(options);
}

/** Builds the service (unless given) and the node:http listener that serves it. */
async function loadListener(
  options: StartOptions,
  listenHost: string,
  data: DataFolder | undefined,
  scheme: 'http' | 'https',
): Promise<{
  service: MockService;
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  nextRequestId: () => string;
}> {
  const [
    { getRequestListener },
    { createMockService, durabilityOf, fastLaneOf, notSaved, requestIdsOf },
    { answerHeaders },
    { toJsonText },
    { normalizeConfig },
  ] = await Promise.all([
    import('@hono/node-server'),
    import('./service.js'),
    import('./http/respond.js'),
    import('./rules/json-text.js'),
    import('./config/config.js'),
  ]);
  const config = options.service ? undefined : normalizeConfig(options.config);
  const onError = options.onError ?? (() => {});
  const withData: ServiceOptionsWithData = { onError, data };
  const service = options.service ?? createMockService(config, withData);
  const durable = durabilityOf(service);
  // The process's own Request and Response stay: by default @hono/node-server replaces them with
  // its lighter classes for good, which broke `instanceof Response` for the fetch responses of
  // the process the mock runs in (msw 3 among them: a reset fault over msw then hung). The
  // everyday requests take the fast lane below, which makes neither.
  const keepGlobals = { overrideGlobalObjects: false };
  const hono = getRequestListener(async (request, env) => {
    const incoming = (env as { incoming: IncomingMessage & ReadBody }).incoming;
    // Headers straight from the IncomingMessage: the service then never asks @hono/node-server
    // for the Request's WHATWG Headers, which it would build from every raw header.
    const transport: Transport = { listenHost, header: (name) => headerOf(incoming, name) };
    if (incoming.bodyText !== undefined) transport.body = incoming.bodyText;
    if (incoming.requestId !== undefined) transport.requestId = incoming.requestId;
    const response = await service.handle(request, transport);
    // A `reset` fault (Response.error(), status 0): the service's transport-free way to say
    // "drop the connection".
    if (response.status === 0 && response.type === 'error') {
      incoming.socket.destroy();
      return new Response(null, { status: 204 });
    }
    return response;
  }, keepGlobals);
  const lane = fastLaneOf(service);
  /**
   * The path of a target with a query, in memory of its own. V8 cuts a substring of 13 or more
   * characters as a view into the string it came from, so a path (and each id cut from it)
   * would keep the whole request line alive wherever the mock keeps it: in the journal, the
   * route cache and the parse cache, 1,000 ids sent with a 12 KiB query held 12 MiB.
   */
  const pathBefore = (target: string, query: number) => ` ${target.slice(0, query)}`.slice(1);
  const nextRequestId = requestIdsOf(service);
  /** Answers from the service's fast lane when it takes the request; false when it does not. */
  const answeredFast = (req: IncomingMessage & ReadBody, res: ServerResponse, body?: string): boolean => {
    const target = req.url ?? '';
    // An absolute request target names its own host: the router checks it.
    if (!lane || target[0] !== '/') return false;
    const query = target.indexOf('?');
    const requestId = nextRequestId();
    const outcome = lane({
      requestId,
      method: req.method ?? 'GET',
      path: query < 0 ? target : pathBefore(target, query),
      header: (name) => headerOf(req, name),
      body,
      listenHost,
      // A checkout's payment URL names this server as the client reached it, https included.
      origin: () => new URL(`${scheme}://${req.headers.host}`).origin,
    });
    if (!outcome) {
      req.requestId = requestId; // one id per request, however it is answered
      return false;
    }
    // With --data, once what the answer shows is on disk.
    const waiting = durable?.();
    if (waiting) {
      waiting.then(
        () => write(res, outcome, requestId),
        (error: Error) => write(res, notSaved(error), requestId),
      );
    } else write(res, outcome, requestId);
    return true;
  };
  // Written as @hono/node-server writes a respond()ed answer, byte for byte.
  const write = (res: ServerResponse, outcome: AnyOutcome, requestId: string) => {
    const text = toJsonText(outcome.body);
    res.writeHead(outcome.status, answerHeaders(outcome, requestId, Buffer.byteLength(text)));
    res.end(text);
  };
  /** Answers a request whose body was read here (`readHere`: as Transport.body, JSON). */
  const answerRead = (req: IncomingMessage, res: ServerResponse, body: Buffer, readHere: boolean) => {
    if (!readHere) {
      // @hono/node-server builds the Request's body from `rawBody`, the stream being spent.
      Object.assign(req, { rawBody: body });
      void hono(req, res);
      return;
    }
    const text = utf8.decode(body);
    if (answeredFast(req, res, text)) return;
    // @hono/node-server builds the Request's own body from `rawBody` when something still
    // asks the Request for it (a wrapper that clones it, say), since the stream is spent.
    Object.assign(req, { rawBody: body, bodyText: text });
    void hono(req, res);
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // A body without a Content-Length: none at all (RFC 9112 §6.3) unless a Transfer-Encoding
    // says it is chunked. Either way it gets one here: this adapter keeps @hono/node-server's
    // Request off the process's globals, and hono's body limit, which re-wraps a Request of
    // unknown length with the global class, threw on it (a 500 for `curl -X POST URL`).
    if (req.headers['content-length'] === undefined && BODY_METHODS.has(req.method ?? '')) {
      if (req.headers['transfer-encoding'] === undefined) declareLength(req, 0);
      else {
        readUnsized(req, (body) => {
          declareLength(req, body.length);
          // Past the limit the service answers 413 from the length; the rest stays unread.
          if (body.length > MAX_BODY_BYTES) res.setHeader('connection', 'close');
          answerRead(req, res, body, wholeBodyLength(req) !== undefined);
        });
        return;
      }
    }
    const declared = wholeBodyLength(req);
    if (declared === undefined) {
      if (!answeredFast(req, res)) void hono(req, res);
      return;
    }
    const answer = (body: Buffer) => answerRead(req, res, body, true);
    // Node's parser delivers exactly the declared length. The listener runs once the headers
    // are parsed, and a small body sent with them is parsed before the next tick; a request
    // that waited for its connection (pipelined behind a slower answer) has it already. Then
    // it is taken whole from the stream's buffer, without a 'data' listener, flowing mode and
    // an 'end' a tick later: a tenth of a replayed generate's CPU here. `req.complete` cannot
    // say so: the parser marks the message complete only after that tick.
    const takeBuffered = () => {
      if (req.readableLength !== declared || req.readableFlowing !== null) return false;
      answer((req.read() as Buffer | null) ?? EMPTY_BODY);
      return true;
    };
    if (takeBuffered()) return;
    process.nextTick(() => {
      if (takeBuffered()) return;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A small body comes in one chunk: no copy into a new buffer.
      req.once('end', () => answer(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    });
  };
  return { service, listener, nextRequestId };
}

type Loaded = Awaited<ReturnType<typeof loadListener>>;

/**
 * startMockServer, or with `onListening`: listen first and call it with the URL, then load the
 * service and its HTTP layer (about two thirds of start-up), so the bin prints its URL sooner.
 * A request that arrives meanwhile is accepted and waits for them. Without `onListening` a
 * config the service refuses is refused before the port is taken, as before.
 */
export async function serveMock(
  options: StartOptions,
  onListening?: (url: string) => void,
): Promise<MockServer> {
  const listenHost = options.host ?? DEFAULT_HOST;
  const scheme = options.tls ? 'https' : 'http';
  // A certificate and key that do not go together are refused before the folder or the port
  // is taken (node:https would throw the same, later).
  if (options.tls) (await import('node:tls')).createSecureContext(options.tls);
  // With --data the folder is opened (locked and read) before the port: a second mock on the
  // same folder then says so without first printing an address it will not serve. Its module
  // needs neither zod nor the service, so the URL still comes before they load.
  const dataDir = options.service
    ? undefined
    : (options.config as { dataDir?: unknown } | undefined)?.dataDir;
  const data =
    typeof dataDir === 'string'
      ? (await import('./data/folder.js')).openDataFolder(
          dataDir,
          options.onError ?? (() => {}),
          options.onNote,
          { recover: options.dataRecover === true },
        )
      : undefined;
  let loading = onListening ? undefined : loadListener(options, listenHost, data, scheme);
  // Until the service is built, the folder is this function's to let go of on a failure.
  loading?.catch(() => data?.close());
  const loaded = loading ? await loading : undefined;
  let ready = loaded;
  const load = () => {
    loading ??= loadListener(options, listenHost, data, scheme);
    return loading;
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (!ready) {
      // Arrived while the service loads: answered once it has (its request ids come from it).
      load().then(
        (loadedNow) => {
          ready = loadedNow;
          handle(req, res);
        },
        () => res.destroy(),
      );
      return;
    }
    if (!isWellFormedHost(req.headers.host ?? '')) {
      // HTTP/1.1 asks for a 400 here; answered like every other refusal, with {detail}.
      const body = JSON.stringify({
        detail:
          'The Host header is missing or is not a host name with an optional port (up to 65535), written as a URL writes it',
      });
      res.writeHead(400, {
        'content-type': 'application/json',
        'x-request-id': ready.nextRequestId(),
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      res.end(body);
      return;
    }
    // An oversized body is refused (413) without being read to its end, so the
    // connection cannot carry another request: tell the client not to reuse it.
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) res.setHeader('connection', 'close');
    ready.listener(req, res);
  };
  // node:http from getBuiltinModule where Node has it (20.16, 22.3): an ESM import of it reads
  // every export, and on Node 22 its WebSocket getter loads undici and node:http2, a third of
  // the start-up, before the URL is printed. An older Node 20 imports it (it has no such getter).
  const { createServer: createHttpServer, STATUS_CODES } =
    process.getBuiltinModule?.('node:http') ?? (await import('node:http'));
  // Pipelined requests (several sent on a connection before the first answer) are carried out
  // one at a time, in the order sent: a request is handled once the answers before it have
  // gone out, when node:http gives its response the connection. Handled at once, a GET could
  // run its rules before a POST ahead of it had its body read (a balance missing the charge
  // before it), and its answer would wait in the response's pending output, an array V8 then
  // learns to allocate straight in the old generation: every answer held there kept its
  // request and response alive until a full collection, and those ran every half second.
  const { onRequest } = options;
  /** Responses whose request node:http's parser refused midway: clientError answered them. */
  const refused = new WeakSet<ServerResponse>();
  const serve = onRequest
    ? (req: IncomingMessage, res: ServerResponse) => logged(req, res, onRequest)
    : handle;
  const logged = (
    req: IncomingMessage,
    res: ServerResponse,
    hear: NonNullable<typeof onRequest>,
    started = performance.now(),
  ) => {
    if (!ready) {
      // Arrived after the URL line, before the service loaded (with --data, while the folder
      // loads): heard once it has, as every other request, since its answer waits for it too.
      load().then(
        (loadedNow) => {
          ready = loadedNow;
          logged(req, res, hear, started);
        },
        () => res.destroy(),
      );
      return;
    }
    const { service } = ready;
    if (isDashboardRead(req)) return handle(req, res);
    const account = service.state().accounts.byAuthorization(headerOf(req, 'authorization'));
    // Due events run first, as the request itself would: what they move is not this request's.
    service.now();
    const before = account ? service.state().ledger.balance(account.id) : 0;
    let requestId: string | undefined;
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      requestId = requestIdIn(args[1] ?? args[2]);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    res.once('close', () => {
      if (refused.has(res)) return; // answered and logged by clientError
      const target = req.url ?? '';
      const query = target.indexOf('?');
      hear(
        {
          at: service.now(),
          accountId: account?.id,
          method: req.method ?? '',
          path: query < 0 ? target : target.slice(0, query),
          status: res.headersSent ? res.statusCode : 0,
          credits: account ? service.state().ledger.balance(account.id) - before : 0,
          requestId: requestId ?? (res.getHeader('x-request-id') as string | undefined),
          durationMs: performance.now() - started,
        },
        service,
      );
    });
    handle(req, res);
  };
  const onServerRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (res.socket) serve(req, res);
    else res.on('socket', () => serve(req, res)); // given once: no need for once()'s wrapper
  };
  // node:https is loaded only for TLS; its server is node:http's with a TLS socket under it,
  // so every request takes the same path (the pair was checked above).
  const server = options.tls
    ? (await import('node:https')).createServer(
        { cert: options.tls.cert, key: options.tls.key },
        onServerRequest,
      )
    : createHttpServer(onServerRequest);
  // What node:http's parser refuses (headers past its ~16 KiB limit, a line that is not HTTP)
  // it answers itself with a bare 431 or 400: answered here like every other refusal instead.
  server.on('clientError', (error: ParseError, socket: Socket) => {
    const started = performance.now();
    // A refusal in the middle of a body: the request's own response never answers, and its
    // log line is this one.
    const pending = (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
    if (pending) refused.add(pending);
    const answerable = socket.writable && !pending?.headersSent;
    if (!answerable) {
      socket.destroy();
      return;
    }
    const answer = (loadedNow: Loaded) => {
      ready = loadedNow;
      const refusal = parseRefusal(error);
      const requestId = loadedNow.nextRequestId();
      const body = JSON.stringify({ detail: refusal.detail });
      socket.end(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\ncontent-type: application/json\r\n` +
          `x-request-id: ${requestId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      const { service } = loadedNow;
      onRequest?.(
        {
          at: service.now(),
          accountId: undefined,
          ...refusal.target,
          status: refusal.status,
          credits: 0,
          requestId,
          durationMs: performance.now() - started,
        },
        service,
      );
    };
    if (ready) answer(ready);
    else load().then(answer, () => socket.destroy());
  });
  const close = () =>
    new Promise<void>((done, fail) => {
      server.close((error) => (error ? fail(error) : done()));
      // Keep-alive sockets would hold the server open; close them with it.
      server.closeAllConnections();
    });
  const stop = async () => {
    await close();
    await data?.close();
  };
  const url = await new Promise<string>((resolve, reject) => {
    server.once('error', (error) => {
      // The data folder is open and locked: let it go before saying why.
      void (data?.close() ?? Promise.resolve()).finally(() => reject(error));
    });
    server.listen(options.port ?? DEFAULT_PORT, listenHost, () => {
      const info = server.address() as AddressInfo;
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve(`${scheme}://${host}:${info.port}`);
    });
  });
  onListening?.(url);
  try {
    ready = await load();
  } catch (error) {
    await close();
    await data?.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return { url, port, service: ready.service, close: stop };
}
