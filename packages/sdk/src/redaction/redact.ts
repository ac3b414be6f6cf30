// Keeps the client's own API key out of everything a server can put into an SDK error, a log
// line or a hook argument: a hostile or careless server may echo the key back in `detail`, in a
// header or in a job's `error`, spelled as it is, percent-encoded in any way that decodes to it,
// in base64 or base64url (alone or inside a longer token), in hex, or split by escape sequences
// that a terminal would not show.
// A key has at least 8 characters (arguments.ts), so that no spelling of it is an ordinary word.

import { CONTROL_CLASS, DEFAULT_IGNORABLE_CLASS } from './invisible.js';
import { SEQUENCE } from './terminal-safe.js';

const REDACTED = '[redacted]';

export interface Redactor {
  /** The text with every spelling of the key replaced. */
  text(value: string): string;
  /**
   * A header's name with every spelling of the key replaced, compared without case: a server may
   * send the key as a name, and fetch and node:http hand names over lowercased.
   */
  name(value: string): string;
  /** A JSON value with the key replaced in every string and property name. */
  json<T>(value: T): T;
  /**
   * An error from fetch as given, or a copy (name, message, stack and code only) whose text no
   * longer holds the key, or that drops the raw bytes the error kept.
   */
  cause(error: unknown): unknown;
  /** `JSON.parse`, with the key replaced in every string and name, whatever escapes spelled it. */
  parse(text: string): unknown;
}

// Escape sequences, two ways: as the CLI's terminal filter removes them (terminal-safe.ts's
// SEQUENCE: CSI, OSC, DCS and the other strings, ESC with intermediates, 7-bit and 8-bit), and
// as a simpler sanitizer might (CSI, OSC, ESC and one character), which reads `ESC ! [` as
// `ESC !` and a `[` where the filter takes all three; then each other control and invisible
// character (C0 but tab and newline, DEL, C1, the default-ignorable code points of
// invisible.ts) and the combining marks, which show nothing of their own between two letters:
// what a terminal hides, or a sanitizer that drops them removes, so a key split by them still
// shows.
const SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const INVISIBLE_SOURCE = `[${CONTROL_CLASS}${DEFAULT_IGNORABLE_CLASS}]|\\p{M}`;
const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');
const INVISIBLE_ALL = new RegExp(INVISIBLE_SOURCE, 'gu');

/** What a terminal shows once each backspace has stepped back over the character before it. */
function overstruck(value: string): string {
  if (!value.includes('\b')) return value;
  const shown: string[] = [];
  for (const char of value) {
    if (char === '\b') shown.pop();
    else shown.push(char);
  }
  return shown.join('');
}

// What a person may see: without whole sequences (either way), with backspaces applied or not,
// or (for a sanitizer that drops only the control characters themselves) without the controls alone.
const visibleTexts = (value: string) => {
  const bare = value.replace(SEQUENCES, '');
  const filtered = value.replace(SEQUENCE, '');
  return [
    overstruck(bare).replace(INVISIBLE_ALL, ''),
    bare.replace(INVISIBLE_ALL, ''),
    overstruck(filtered).replace(INVISIBLE_ALL, ''),
    filtered.replace(INVISIBLE_ALL, ''),
    value.replace(INVISIBLE_ALL, ''),
  ];
};

/**
 * The characters of base64 that depend on the key's bytes alone (`bytes`, as a binary string),
 * with the key `offset` bytes into a longer value: whatever surrounds it, these appear in that
 * value's encoding.
 */
function base64Core(bytes: string, offset: number): string {
  const encoded = btoa(`${'\u0000'.repeat(offset)}${bytes}`).replace(/=+$/, '');
  const first = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + bytes.length) * 8) / 6);
  return encoded.slice(first, end);
}

/** A hex digit in either case. */
const hexDigit = (digit: number) => {
  const lower = digit.toString(16);
  return `[${lower}${lower.toUpperCase()}]`;
};

/**
 * Every text that percent-decodes to the key: each character as it is or as its UTF-8 bytes
 * percent-encoded (hex in either case), a space also as `+` (forms, Python's `quote_plus`).
 * encodeURIComponent's spelling is one of them; Python's `quote()`, lower-case hex and every
 * byte encoded (an attack trial's spellings, which went through) are others.
 */
function percentSource(secret: string, between = ''): string {
  const source: string[] = [];
  for (const char of secret) {
    const code = char.codePointAt(0)!;
    let either = `\\u{${code.toString(16)}}`;
    // A lone surrogate (0xd800 to 0xdfff) has no UTF-8: only itself.
    if (code >> 11 !== 27) {
      either += '|';
      for (const byte of new TextEncoder().encode(char))
        either += `%${hexDigit(byte >> 4)}${hexDigit(byte & 15)}`;
    }
    source.push(`(?:${either}${char === ' ' ? '|\\+' : ''})`);
  }
  return source.join(between);
}

function formsOf(secret: string): string[] {
  // Bytes as UTF-8: a key the SDK takes is printable ASCII (arguments.ts), but the mock's
  // configured keys may be any text of 8 characters or more.
  const utf8 = new TextEncoder().encode(secret);
  const bytes = String.fromCharCode(...utf8);
  const hex = [...utf8].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const base64 = [0, 1, 2].map((offset) => base64Core(bytes, offset));
  const base64url = base64.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_'));
  const forms = [secret, hex, hex.toUpperCase(), ...base64, ...base64url];
  // Longest first: where one spelling holds another, the whole of it goes.
  return [...new Set(forms)].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

// Escapes a server may have wrapped the key in, undone together and again (a `%25` spelling of
// `%`, an entity percent-encoded): HTML numeric entities, `%uXXXX`, `\uXXXX` and `\xXX` as plain
// text, runs of percent-encoded bytes (UTF-8, else one character a byte). Each pass that changes
// the text shortens it; 16 passes bound a hostile line's cost.
const ESCAPED =
  /&#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));?|[%\\][uU]([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|(?:%[0-9a-fA-F]{2})+/g;
// Text worth undoing: one level of percent-encoding alone is the percent pattern's, so only a
// `%` encoded (`%25`), an encoded `&`, `\` or fullwidth byte, and the other escapes count.
const MAY_BE_ESCAPED = /%(?:25|26|5c|u[0-9a-f]{4}|ef)|&#|\\[ux]|[\uff01-\uff5e]/i;
const FULLWIDTH = /[\uff01-\uff5e]/;
const SPACE = /\s+/g;
const bytesOf = (run: string) => {
  try {
    return decodeURIComponent(run);
  } catch {
    return run.replace(/%(..)/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
};
function undone(value: string): string {
  let out = value;
  for (let pass = 0; pass < 16; pass++) {
    // NFKC: a fullwidth key (or `％`) reads as the key.
    const next = (FULLWIDTH.test(out) ? out.normalize('NFKC') : out).replace(
      ESCAPED,
      (all, hex?: string, dec?: string, u?: string, x?: string) => {
        const code = Number.parseInt(hex ?? dec ?? u ?? x ?? '', hex || u || x ? 16 : 10);
        if (Number.isNaN(code)) return bytesOf(all);
        return code > 0x10ffff ? all : String.fromCodePoint(code);
      },
    );
    if (next === out) break;
    out = next;
  }
  return out;
}

export function createRedactor(secret: string): Redactor {
  const forms = formsOf(secret);
  // Forms longer than the key go before its percent spellings (which hold the key as it is).
  const longer = forms.filter((form) => form.length > secret.length);
  const shorter = forms.filter((form) => form.length <= secret.length);
  const source = percentSource(secret);
  const percent = new RegExp(source, 'u');
  const percentAll = new RegExp(source, 'gu');
  // Without a `%` (or a `+`, for a key with a space) every percent spelling is the key as it
  // is, which `includes` finds: the regex runs only on text that could hold another.
  const plus = secret.includes(' ');
  const encodes = (value: string) => value.includes('%') || (plus && value.includes('+'));
  const mentions = (value: string) =>
    forms.some((form) => value.includes(form)) || (encodes(value) && percent.test(value));
  const replace = (value: string, all: readonly string[]) =>
    all.reduce((out, form) => (out.includes(form) ? out.split(form).join(REDACTED) : out), value);
  const scrub = (value: string) => {
    const out = replace(value, longer);
    return replace(encodes(out) ? out.replace(percentAll, REDACTED) : out, shorter);
  };
  // Controls are dropped only from a string that shows the key without them: any other string
  // keeps every character, for the CLI to show or escape as it does.
  const unhidden = (value: string) =>
    INVISIBLE.test(value) ? visibleTexts(value).find(mentions) : undefined;
  const plain = (value: string) => {
    const visible = unhidden(value);
    if (visible !== undefined) return scrub(visible);
    return mentions(value) ? scrub(value) : value;
  };

  // White space (tab, CR, LF, space and the rest) between the key's characters, or wrapping its
  // base64: replaced in place, so the rest keeps its spaces. One pattern, tried only on text with
  // white space: cheaper than a copy without it (measured). A key with fewer than 8 characters
  // besides white space is matched only as it is.
  // The key in any percent spelling, the other forms as they are, white space between any two
  // characters (the key's own percent-encoded too: `%20`, `+`, `%09`, `%0A`, `%0D`).
  const bareForms = forms.map((form) => form.replace(SPACE, '')).filter((form) => form.length >= 8);
  const between = '(?:\\s|%(?:09|0[aAdD]|20)|\\+)*';
  const spaced =
    bareForms.length > 0
      ? new RegExp(bareForms.map((form) => percentSource(form, between)).join('|'), 'gu')
      : undefined;
  const unspaced = (value: string) =>
    spaced && /\s|%(?:09|0a|0d|20)|\+/i.test(value) ? value.replace(spaced, REDACTED) : value;
  const once = (value: string) => unspaced(plain(value));

  const text = (value: string) => {
    const out = once(value);
    if (!MAY_BE_ESCAPED.test(out)) return out;
    // Escapes undone only when that shows the key: any other text is left as it came.
    const decoded = undone(out);
    if (decoded === out) return out;
    // Decoded text can hold the key only as it is, split or hidden: the percent pattern is not run again.
    const shows =
      forms.some((form) => decoded.includes(form)) ||
      INVISIBLE.test(decoded) ||
      (spaced !== undefined && decoded.search(spaced) >= 0);
    if (!shows) return out;
    const scrubbed = once(decoded);
    return scrubbed === decoded ? out : scrubbed;
  };

  const holds = (value: string) => text(value) !== value;

  // Names compared without case: the lowered text through the lowered key's redactor (every
  // spelling above, of a key whose lowercase may differ in length), then the lowered forms.
  const lowerForms = [...new Set(forms.map((form) => form.toLowerCase()))];
  let lowered: Redactor | undefined;
  const name = (value: string) => {
    const shown = text(value);
    const lower = shown.toLowerCase();
    lowered ??= createRedactor(secret.toLowerCase());
    const out = replace(lowered.text(lower), lowerForms);
    return out === lower ? shown : out;
  };

  // Bytes are never kept: node:http's parse error holds the raw answer (`rawPacket`), in which a
  // server may spell the key in any encoding, so an error with a byte field is always rebuilt.
  function errorMentions(error: Error): boolean {
    if (holds(String(error.message)) || holds(String(error.stack))) return true;
    return Object.values(error).some(
      (field) =>
        (typeof field === 'string' && holds(field)) ||
        ArrayBuffer.isView(field) ||
        field instanceof ArrayBuffer,
    );
  }

  function cause(error: unknown, depth = 0): unknown {
    if (!(error instanceof Error) || depth > 4) return error;
    const inner = cause(error.cause, depth + 1);
    if (inner === error.cause && !errorMentions(error)) return error;
    const copy = new Error(text(String(error.message)), inner === undefined ? undefined : { cause: inner });
    copy.name = error.name;
    copy.stack = text(String(error.stack));
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') Object.assign(copy, { code });
    return copy;
  }

  /** Sets a property as JSON.parse made it: an own data property, even one named `__proto__`. */
  const put = (target: Record<string, unknown>, name: string, value: unknown) =>
    Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });

  /**
   * The key replaced in every string and property name of parsed JSON, with an explicit stack:
   * JSON.parse's reviver recurses, and a server's body nested about 8,000 deep overflowed it.
   */
  function scrubParsed(root: unknown): unknown {
    const holder: Record<string, unknown> = {};
    put(holder, '', root);
    const stack: Array<Record<string, unknown>> = [holder];
    for (let node = stack.pop(); node; node = stack.pop()) {
      for (const name of Object.keys(node)) {
        let value = node[name];
        if (typeof value === 'string') {
          const scrubbed = text(value);
          if (scrubbed !== value) put(node, name, scrubbed);
          continue;
        }
        if (value === null || typeof value !== 'object') continue;
        if (!Array.isArray(value) && Object.keys(value).some(holds)) {
          // A new object, names in their order, each set as an own property.
          const renamed: Record<string, unknown> = {};
          for (const [inner, item] of Object.entries(value)) put(renamed, text(inner), item);
          value = renamed;
          put(node, name, value);
        }
        stack.push(value as Record<string, unknown>);
      }
    }
    return holder[''];
  }

  // Without a backslash every string of the text is spelled literally, so a key the text does
  // not mention, with or without its invisible characters, cannot be in any of them: the plain
  // parse, without the walk.
  const parse = (body: string): unknown =>
    body.includes('\\') || holds(body) ? scrubParsed(JSON.parse(body)) : JSON.parse(body);

  return {
    text,
    name,
    // Server data is JSON: a copy through the same parse, whatever escapes the text needed.
    json: <T>(value: T) => (value === undefined ? value : (parse(JSON.stringify(value)) as T)),
    cause: (error) => cause(error),
    parse,
  };
}
