// Reads a response body under a byte cap and an abort signal. `response.text()` would buffer
// whatever the server sends (400 MB included) and, with some fetch implementations, ignore the
// attempt's timeout once headers have arrived.

/** The largest body the SDK reads. Real answers are a few KB; an article is well under 1 MiB. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type BodyRead = { kind: 'text'; text: string } | { kind: 'too-large' };

export async function readBody(
  response: Response,
  signal: AbortSignal,
  maxBytes: number = MAX_BODY_BYTES,
): Promise<BodyRead> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return { kind: 'too-large' };
  }
  if (response.body === null) return { kind: 'text', text: '' };
  const reader = response.body.getReader();
  // Cancelling unblocks a pending read even on a fetch that does not tie its body to the signal.
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'text', text: new TextDecoder().decode(bytes) };
}
