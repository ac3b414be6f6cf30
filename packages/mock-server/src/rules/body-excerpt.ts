// A request or answer body as the journal keeps it (config `journal.bodies`): every configured
// API key and the admin token replaced, then cut at 64 KiB of UTF-8 so that 1,000 entries hold
// a bounded amount whatever the bodies were (up to 1 MiB each).
import { createRedactor } from '@profile-articles/sdk/internal';

const MAX_BODY_EXCERPT_BYTES = 64 * 1024;

export interface BodyExcerpt {
  text: string;
  /** The body was longer than MAX_BODY_EXCERPT_BYTES; `text` is its start. */
  truncated: boolean;
}

/**
 * Replaces every secret in a string, in every spelling the SDK's redactor knows (percent- and
 * JSON-escaped ones among them). Longest first, so a key that contains another is replaced whole.
 */
function redactor(secrets: readonly string[]): (text: string) => string {
  const redactors = secrets
    .filter((secret) => secret.length > 0)
    .sort((a, b) => b.length - a.length)
    .map(createRedactor);
  return (text) => redactors.reduce((out, redact) => redact.text(out), text);
}

/**
 * A JSON body is read and written again before it is redacted: a key spelled with JSON escapes
 * (`"\u0064emo-key"`) is then written plainly and found. Anything else is redacted as it is.
 */
function normalised(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Makes the journal's excerpt of a body; undefined for no body. */
export function createBodyExcerpts(
  secrets: readonly string[],
): (text: string | undefined) => BodyExcerpt | null {
  const redact = redactor(secrets);
  const buffer = new Uint8Array(MAX_BODY_EXCERPT_BYTES);
  return (text) => {
    if (text === undefined || text === '') return null;
    const clean = redact(normalised(text));
    // encodeInto stops before a code point that would not fit whole: no half character.
    const { read, written } = encoder.encodeInto(clean, buffer);
    // Decoded from bytes: a string of its own, never a view holding the 1 MiB body alive.
    return { text: decoder.decode(buffer.subarray(0, written)), truncated: read < clean.length };
  };
}
