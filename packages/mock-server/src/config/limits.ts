// The largest request body the mock reads (1 MiB), and which requests have a body: the service
// refuses more with a 413, and the node adapter checks both before the service is loaded, so
// they live apart from both.
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The methods whose requests carry a body the mock reads: the node adapter (is there a body
 * to read whole?), the service (a body to cap) and the guard (a body to type-check) each ask
 * this one list.
 */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
