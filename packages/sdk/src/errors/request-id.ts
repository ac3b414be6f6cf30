// The `X-Request-Id` of an answer, as the SDK hands it on (ApiError.requestId, withResponse()).
// It is server text that ends up in logs and on terminals: only an id of 1 to 200 printable
// ASCII characters is kept, and anything else is dropped whole rather than cleaned, since a
// changed id would not find the request. HTTP parsers refuse raw C0 controls in a header, but
// pass 0x80-0xFF, where the 8-bit CSI (U+009B) starts a terminal escape sequence.

const PRINTABLE_ID = /^[\x20-\x7e]{1,200}$/;

/** The id of `response`, or undefined when it has none that is safe to show. */
export function safeRequestId(response: Response): string | undefined {
  const id = response.headers.get('x-request-id');
  return id !== null && PRINTABLE_ID.test(id) ? id : undefined;
}
