// Reads a response body under a byte cap, a time limit and an abort signal. `response.text()`
// would buffer whatever the server sends (400 MB included) and, with some fetch
// implementations, ignore the attempt's timeout once headers have arrived.
import { startTimer } from '../retry/abort.js';
import { TIMED_OUT } from './timed-send.js';

/** The largest body the SDK reads. Real answers are a few KB; an article is well under 1 MiB. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export type BodyRead = { kind: 'text'; text: string } | { kind: 'too-large' };

const decoder = new TextDecoder();

/**
 * The body as text, read within `msLeft` ms; rejects with the signal's reason when it aborts,
 * or with TIMED_OUT. A timer rather than an AbortController: creating one is among the
 * costliest parts of a call on Node.
 */
export async function readBody(
  response: Response,
  signal: AbortSignal | undefined,
  msLeft: number,
  maxBytes: number = MAX_RESPONSE_BYTES,
): Promise<BodyRead> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return { kind: 'too-large' };
  }
  if (response.body === null) return { kind: 'text', text: '' };
  if (signal?.aborted) throw signal.reason;
  const reader = response.body.getReader();
  let stopped: { reason: unknown } | undefined;
  // Cancelling unblocks a pending read even on a fetch that does not tie its body to a signal.
  const stop = (reason: unknown) => {
    stopped ??= { reason };
    reader.cancel().catch(() => {});
  };
  const onAbort = () => stop(signal?.reason);
  const timer = startTimer(stop, msLeft, TIMED_OUT);
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stopped) throw stopped.reason;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch (error) {
    throw stopped ? stopped.reason : error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (chunks.length === 1) return { kind: 'text', text: decoder.decode(chunks[0]) };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'text', text: decoder.decode(bytes) };
}
