// The id every answer of the mock carries as `X-Request-Id`, and its journal records: what a
// customer quotes when asking about a charge. A counter per service: unique for the service's
// life (a reset does not restart it), the same sequence for the same requests (a seeded
// service replays byte for byte), and about as cheap as an id can be on the hot path.
// A service over a --data folder outlives its process, so its ids must also differ from those
// of every earlier start: they carry the start's time (startTag), `req_miq4b2k0_1`.

/** `req_1`, `req_2`… (after another `prefix` for a sequence of the HTTP adapter's own): the next id each call. */
export function createRequestIds(prefix = 'req_'): () => string {
  let count = 0;
  return () => `${prefix}${++count}`;
}

let lastTag = 0;

/**
 * The start's time in milliseconds, base 36 (8 characters until the year 2059): two starts of
 * one folder are never in the same millisecond (the folder's lock lets one start at a time, and
 * a start takes longer than that); within a process the tags only go up, so two services
 * started in the same millisecond still differ.
 */
export function startTag(now: number = Date.now()): string {
  lastTag = Math.max(now, lastTag + 1);
  return lastTag.toString(36);
}
