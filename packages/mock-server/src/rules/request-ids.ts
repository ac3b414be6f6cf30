// The id every answer of the mock carries as `X-Request-Id`, and its journal records: what a
// customer quotes when asking about a charge. A counter per service: unique for the service's
// life (a reset does not restart it), the same sequence for the same requests (a seeded
// service replays byte for byte), and about as cheap as an id can be on the hot path.

/** `req_1`, `req_2`… (after another `prefix` for a sequence of the HTTP adapter's own): the next id each call. */
export function createRequestIds(prefix = 'req_'): () => string {
  let count = 0;
  return () => `${prefix}${++count}`;
}
