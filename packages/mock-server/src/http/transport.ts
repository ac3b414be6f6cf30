// What an adapter hands the service with each request, and what the routes see of it.

/** What the transport tells the service about a request. */
export interface Transport {
  /** The address the HTTP server listens on; turns the Host and Origin checks on. */
  listenHost?: string;
  /**
   * The request body, already read whole by the transport (within the body limit). The
   * service reads it from here instead of the Request: building a WHATWG Request body from a
   * node:http stream costs more than the rest of the request.
   */
  body?: string;
  /**
   * Reads a request header (a lower-case name) as `Request.headers.get` would, duplicates
   * joined, from wherever the transport keeps them: the service then never builds a WHATWG
   * Headers for the request, which costs more than the rest of a simple GET.
   */
  header?: (name: string) => string | undefined;
  /** The request's `X-Request-Id`, when the transport chose it (see service.ts). */
  requestId?: string;
}

/** What the service's routes see: the transport, its request id always set by `handle`. */
export type GuardEnv = { Bindings: Transport & { requestId: string } };
