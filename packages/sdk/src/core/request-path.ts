// A path the caller spells (the CLI's `api`, and the coming `client.request()`), checked before it
// is sent: it carries the client's key, so it must stay on the client's origin, under /api/. An
// attack trial sent `\..`, `%2e%2e` and `.%2e`, which a plain check of `.`/`..` segments let
// through and the URL parser then resolved, the key going to `/x` outside /api/.
import { InvalidArgumentError } from '../errors/errors.js';
import { API_PREFIX } from '../schemas/endpoints.js';

const DOT_SEGMENTS = 'path must hold no . or .. segment, in any spelling (\\ is /, %2e is .)';
const PASSES = 8;

/**
 * `text` percent-decoded again and again (`%252e` is `.` too), IIS's `%uXXXX` with it, each run
 * of bytes read as UTF-8; bad escapes stay. An overlong UTF-8 sequence (`%c0%ae`, a `.` to a
 * lenient decoder) is refused, and so is a text still encoded after 8 passes: a server may
 * decode deeper than any cap.
 */
function decodedFully(text: string): string {
  let out = text;
  for (let i = 0; i <= PASSES; i++) {
    const next = out.replace(/%u([0-9a-f]{4})|(?:%[0-9a-f]{2})+/gi, (run, u?: string) => {
      if (u) return String.fromCharCode(Number.parseInt(u, 16));
      if (/%c[01]|%e0%[89]|%f0%8/i.test(run))
        throw new InvalidArgumentError('path must hold no overlong UTF-8 (such as %c0%ae)');
      return new TextDecoder().decode(
        Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16)),
      );
    });
    if (next === out) return out;
    if (i === PASSES) break;
    out = next;
  }
  throw new InvalidArgumentError(`path must not be percent-encoded more than ${PASSES} times over`);
}

/** A segment as a server may read it: NFKC (`．` is `.`), cut at a path parameter (`;`) or a NUL. */
const dotted = (part: string) => /^\.\.?$/.test(part.normalize('NFKC').split(/[;\0]/, 1)[0]!);

/**
 * Throws InvalidArgumentError unless `path` starts with one `/` (not `//`, `/\` or `\`: another
 * origin, to a URL parser) and no segment of it (before `?` or `#`), split at `/` and at `\` (as
 * a URL parser splits them) and decoded as servers may (decodedFully, NFKC, cut at `;` or NUL),
 * is `.` or `..`: Tomcat and Spring resolve `..;`, IIS `%u002e`.
 */
export function checkSpelledPath(path: string): void {
  if (!path.startsWith('/') || /^[/\\]{2}/.test(path) || path.startsWith('\\')) {
    throw new InvalidArgumentError('path must start with a single /, below the API (such as /credits)');
  }
  const [beforeQuery = ''] = path.split(/[?#]/, 1);
  for (const segment of beforeQuery.split(/[/\\]/)) {
    if (decodedFully(segment).normalize('NFKC').split(/[/\\]/).some(dotted)) {
      throw new InvalidArgumentError(DOT_SEGMENTS);
    }
  }
}

/**
 * The URL a spelled path is sent to, as the URL parser reads it, when it is under the client's
 * `baseUrl` and /api/; else InvalidArgumentError. The last check: whatever the parser made of the
 * path, the key goes nowhere else.
 */
export function checkSentUrl(url: string, baseUrl: string): void {
  const api = new URL(`${baseUrl}${API_PREFIX.slice(0, API_PREFIX.lastIndexOf('/'))}/`).href;
  let sent: URL;
  try {
    sent = new URL(url);
  } catch {
    throw new InvalidArgumentError('path does not make a URL with the client’s baseUrl');
  }
  if (!sent.href.startsWith(api)) {
    throw new InvalidArgumentError(
      `path must stay under ${api.slice(new URL(api).origin.length)} on the client’s origin`,
    );
  }
}
