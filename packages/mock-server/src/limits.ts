// The largest request body the mock reads (1 MiB): the service refuses more with a 413, and the
// node adapter checks it before the service is loaded, so it lives apart from both.
export const MAX_BODY_BYTES = 1024 * 1024;
