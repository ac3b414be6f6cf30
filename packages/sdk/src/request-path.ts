// A path the caller spells (the CLI's `api`, and the coming `client.request()`), checked before it
// is sent: it carries the client's key, so it must stay on the client's origin, under /api/. An
// attack trial sent `\..`, `%2e%2e` and `.%2e`, which a plain check of `.`/`..` segments let
// through and the URL parser then resolved, the key going to `/x` outside /api/.
import { InvalidArgumentError } from './errors.js';
import { API_PREFIX } from './schemas/endpoints.js';

const DOT_SEGMENTS = 'path must hold no . or .. segment, in any spelling (\\ is /, %2e is .)';

/** `text` percent-decoded again and again until it holds no more (`%252e` is `.` too); bad escapes stay. */
function decodedFully(text: string): string {
  let out = text;
  for (let i = 0; i < 8 && out.includes('%'); i++) {
    const next = out.replace(/%([0-9a-fA-F]{2})/g, (_all, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * Throws InvalidArgumentError unless `path` starts with one `/` (not `//`, `/\` or `\`: another
 * origin, to a URL parser) and no segment of it (before `?` or `#`), split at `/` and at `\` (as
 * a URL parser splits them) and percent-decoded (as a server may), is `.` or `..`.
 */
export function checkSpelledPath(path: string): void {
  if (!path.startsWith('/') || /^[/\\]{2}/.test(path) || path.startsWith('\\')) {
    throw new InvalidArgumentError('path must start with a single /, below the API (such as /credits)');
  }
  const [beforeQuery = ''] = path.split(/[?#]/, 1);
  for (const segment of beforeQuery.split(/[/\\]/)) {
    if (
      decodedFully(segment)
        .split(/[/\\]/)
        .some((part) => part === '.' || part === '..')
    ) {
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
