// The shapes the resources hand to the transport.

import type { ResponseIssue } from '../errors/response-issue.js';
import type { RetryPolicy } from '../retry/retry.js';
import type { Endpoint, HttpMethod, PriceField } from '../schemas/endpoints.js';
import type { RequestOptions } from './option-types.js';

/** What `safeParse` of a zod schema returns, without tying this module to zod's types. */
export type ParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly ResponseIssue[] } };

/** The methods a request may have: the interface's GET and POST, and what `request()` also sends. */
export type RequestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestSpec<T> {
  method: RequestMethod;
  /** Below the API prefix, already encoded; below the origin when `fullPath`. */
  path: string;
  /** The path is from the origin's root (`/api/v1/credits`): only raw requests (raw-request.ts). */
  fullPath?: boolean;
  /**
   * For a path the caller spelled: throws unless the URL to send stays under /api/ on the
   * client's `baseUrl` (request-path.ts; given by the caller, so the entry carries it only then).
   */
  checkUrl?: (url: string, baseUrl: string) => void;
  body?: unknown;
  idempotencyKey?: string;
  policy: RetryPolicy;
  isCheckout?: boolean;
  /** False when the interface lists no 404 for the endpoint (see error-from-answer.ts). */
  answers404?: boolean;
  /** Read when a 2xx arrives: `raw` hands it over with its body unread (`asResponse()`). */
  mode?: { raw: boolean } | undefined;
  /** Pacing: counted in the window but never held back (the `'auto'` limit read). */
  paceExempt?: boolean;
  /** Pacing: waiters go out oldest first; a poll passes the time its job's wait began. */
  waitingSince?: number;
  /** Hears a non-2xx answer's JSON body (redacted) with the error made of it: only raw requests. */
  onErrorBody?: (error: Error, body: unknown) => void;
  /** Parses a 2xx body by the schema the contract table gives its status. */
  parse: (body: unknown, status: number) => ParseResult<T>;
  /** A paid endpoint's Pricing fields (see the contract table's `price`). */
  price?: readonly PriceField[];
  /** The contract-table entry called: its span's name and `url.template` (tracing/spans.ts). */
  endpoint?: Endpoint;
  /** The span's name, over the endpoint's: `request` for `client.request()` (tracing/spans.ts). */
  operation?: string;
  /** Set by the call's span: hears each retry's wait, before it is waited. */
  retried?: (delayMs: number) => void;
  /** Set by the spend ledger (spend.ts) on a paid call under way. */
  meter?: CallMeter;
}

/** One paid call under way; the transport calls it around each attempt. */
export interface CallMeter {
  /** Before each attempt: holds the price again when the last attempt may have been charged. */
  attempt(attempt: number): void;
  /** After an attempt: what it answered (undefined when handed over unread), or what went wrong. */
  answered(value: unknown): void;
  /** `notSent`: the request surely never reached the server. */
  failed(error: unknown, notSent?: boolean): void;
  /** Once the call is over, however it ended. */
  end(): void;
}

/** A call's answer: the parsed data and the Response it came in, or the Response alone, unread. */
export interface Answer<T> {
  /** Undefined when `raw`. */
  data: T;
  response: Response;
  raw?: boolean;
}

/** What a call sends beyond the SDK's own: the client's and the call's, merged and checked. */
export interface CallExtras {
  headers?: Readonly<Record<string, string>> | undefined;
  fetchOptions?: object | undefined;
}

export interface Transport {
  request<T>(spec: RequestSpec<T>, callOptions?: RequestOptions): Promise<Answer<T>>;
  /** Replaces the client's API key in server data (a Job) before it goes into an error. */
  redact<T>(value: T): T;
  /** An answer's request id, safe to show and without the key (see request-id.ts). */
  requestIdOf(response: Response): string | undefined;
  /** Credits this client's calls were charged, net of the refunds it has seen. */
  spent(): number;
  /**
   * A wait (`articles.generateAndWait`, `jobs.waitFor`…) named `name`: `run(opts)`, with the
   * wait's span in `opts` for its requests to be parented by, when tracing (tracing/hook.ts).
   */
  wait<O extends object, R>(
    name: string,
    opts: O,
    run: (opts: O) => Promise<R>,
    profileId?: string,
  ): Promise<R>;
}
