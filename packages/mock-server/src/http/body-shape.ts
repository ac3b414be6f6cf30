// What the network can do to an answer's body, as WireMock fakes it: sent slowly (trickle), cut
// so it is not JSON (malformed), or left out (empty). The status and headers stay the answer's
// own, and so does its effect: the request was served, only its body suffers. Transport-free:
// a Response in, a Response out, so node:http and msw get the same (over node:http a trickled
// body is written chunk by chunk as the stream gives it; what msw makes of it: docs/mock-server.md).

type BodyShape = { body: 'trickle'; bytesPerSecond: number } | { body: 'malformed' } | { body: 'empty' };

/** Chunks small enough to show the rate, large enough that a fast rate is not a timer per byte. */
const MAX_CHUNK_BYTES = 16 * 1024;
/** About ten chunks a second, whatever the rate. */
const CHUNKS_PER_SECOND = 10;

function headersWithout(response: Response, name: string): Headers {
  const headers = new Headers(response.headers);
  headers.delete(name);
  return headers;
}

/**
 * `bytes` as a stream that gives `bytesPerSecond` of them a second, in small chunks, each after
 * its share of the time (the first one too: a trickle starts slow). Cancelling the stream (the
 * client went away) stops its timer.
 */
export function trickleStream(
  bytes: Uint8Array,
  bytesPerSecond: number,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const chunk = Math.max(1, Math.min(MAX_CHUNK_BYTES, Math.ceil(bytesPerSecond / CHUNKS_PER_SECOND)));
  const intervalMs = (chunk * 1000) / bytesPerSecond;
  let offset = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // The client went away (msw hands the handler its request's signal): stop sending.
      signal?.addEventListener(
        'abort',
        () => {
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
          // Ended, not errored: the client left on purpose, and an errored body is what
          // @hono/node-server prints as a bare `Error: aborted` line on the mock's stderr.
          try {
            controller.close();
          } catch {
            // Already closed: the last chunk went out as the client left.
          }
        },
        { once: true },
      );
    },
    pull(controller) {
      if (signal?.aborted) return;
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          timer = undefined;
          if (signal?.aborted) return resolve();
          controller.enqueue(bytes.slice(offset, offset + chunk));
          offset += chunk;
          if (offset >= bytes.length) controller.close();
          resolve();
        }, intervalMs);
      });
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
    },
  });
}

/**
 * A JSON text made not JSON: its first half (every proper prefix of an object or array is
 * unfinished), or a lone brace for a text too short to cut.
 */
export function malformedText(text: string): string {
  return text.length < 2 ? '{' : text.slice(0, Math.floor(text.length / 2));
}

/**
 * `response` with its body shaped, its status and other headers kept, and the body text it
 * sends (for the journal: a trickled stream is not read a second time).
 */
export async function shapeBody(
  response: Response,
  shape: BodyShape,
  /** The request's: a trickle stops when it aborts. */
  signal?: AbortSignal,
): Promise<{ response: Response; text: string }> {
  const { status, statusText } = response;
  // Chunked or empty: a length sent ahead would not be this body's.
  const headers = headersWithout(response, 'content-length');
  if (shape.body === 'empty') {
    // Not awaited: a branch of a teed body (a clone's) settles its cancel only with the other's.
    response.body?.cancel().catch(() => {});
    return { response: new Response(null, { status, statusText, headers }), text: '' };
  }
  const text = await response.text();
  if (shape.body === 'malformed') {
    const cut = malformedText(text);
    headers.set('content-type', 'application/json');
    return { response: new Response(cut, { status, statusText, headers }), text: cut };
  }
  const stream = trickleStream(new TextEncoder().encode(text), shape.bytesPerSecond, signal);
  return { response: new Response(stream, { status, statusText, headers }), text };
}
