// A hostile server's ways of echoing the client's API key back (`keyEchoes`), and a detector that
// finds the key in text however it was spelled (`keyLeaks`), written without the SDK's redactor
// so that a test of the redactor does not grade it by itself.

const bytesOf = (text: string) => Buffer.from(text, 'utf8');
const base64 = (bytes: Buffer) => bytes.toString('base64');
const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** Each UTF-8 byte of `text` as `%` and two hex digits; `pick(i)` chooses which bytes, `upper` the case. */
function percentEncoded(text: string, pick: (i: number) => boolean = () => true, upper = false): string {
  let i = 0;
  return [...text]
    .map((char) => {
      const bytes = bytesOf(char);
      if (!pick(i++)) return char;
      const hex = bytes.toString('hex').replace(/../g, '%$&');
      return upper ? hex.toUpperCase() : hex;
    })
    .join('');
}

/** What Python's `urllib.parse.quote()` writes: all but letters, digits, `_.-~` and `/` encoded, upper case. */
const pythonQuote = (text: string) =>
  percentEncoded(text, (i) => !/^[A-Za-z0-9_.~/-]$/.test([...text][i] ?? ''), true);

/**
 * Texts a server could send that hold the key: its base64 and base64url at each of the three
 * alignments inside a longer encoded value, its hex in either case, percent-encoded in the
 * ways that decode to it (encodeURIComponent, Python's quote(), every byte in either case,
 * some bytes in mixed case), and split by escape sequences and controls that a terminal (or a
 * sanitizer that drops them) would hide.
 */
export function keyEchoes(key: string): Record<string, string> {
  const key8 = bytesOf(key);
  const around = (before: number) =>
    Buffer.concat([Buffer.from('session:'.slice(0, before)), key8, Buffer.from(':expires=1767225600')]);
  const cut = Math.max(1, Math.floor(key.length / 2));
  const [head, tail] = [key.slice(0, cut), key.slice(cut)];
  return {
    base64: base64(key8),
    'base64, aligned 1 in a token': `token ${base64(around(1))} ok`,
    'base64, aligned 2 in a token': `token=${base64(around(2))}`,
    'base64, aligned 3 in a token': `"${base64(around(3))}"`,
    base64url: base64url(key8),
    'base64url, aligned 1 in a token': base64url(around(1)),
    'base64url, aligned 2 in a token': `Bearer.${base64url(around(2))}.sig`,
    'base64url, aligned 3 in a token': base64url(around(3)),
    hex: key8.toString('hex'),
    'HEX in capitals': key8.toString('hex').toUpperCase(),
    'hex in a longer value': `0x00ff${key8.toString('hex')}ff00`,
    'URL-encoded': `?k=${encodeURIComponent(key)}`,
    "Python's quote()": `/keys/${pythonQuote(key)}/`,
    'every byte percent-encoded, lower-case hex': `?k=${percentEncoded(key)}&x=1`,
    'every byte percent-encoded, upper-case hex': `?k=${percentEncoded(key, () => true, true)}`,
    'every other byte percent-encoded, mixed case': percentEncoded(key, (i) => i % 2 === 1).replace(
      /%(.)(.)/g,
      (_all, a: string, b: string) => `%${a.toUpperCase()}${b}`,
    ),
    'split by a colour reset': `${head}\u001b[0m${tail}`,
    'split by an OSC title': `${head}\u001b]2;x\u0007${tail}`,
    'split by a C1 CSI': `${head}\u009b0m${tail}`,
    'split by a lone C1 CSI': `${head}\u009b${tail}`,
    'split by a DCS string': `${head}\u001bPq#0\u001b\\${tail}`,
    'split by an 8-bit OSC title': `${head}\u009d2;x\u009c${tail}`,
    'split by a charset switch': `${head}\u001b(B${tail}`,
    'split by a lone ESC': `${head}\u001b${tail}`,
    'split by NUL and DEL': `${head}\u0000\u007f${tail}`,
    'split by a zero-width space': `${head}\u200b${tail}`,
    'split by a bidi isolate': `${head}\u2066\u2069${tail}`,
    'split by a combining grapheme joiner': `${head}\u034f${tail}`,
    'split by a variation selector': `${head}\ufe0f${tail}`,
    'split by a tag character': `${head}\u{e0020}${tail}`,
    'split by a Hangul filler': `${head}\u3164${tail}`,
    'split by a Mongolian variation selector': `${head}\u180b${tail}`,
    'split by a shorthand format control': `${head}\u{1bca0}${tail}`,
    'split by a musical symbol format control': `${head}\u{1d173}${tail}`,
    'split by a combining mark': `${head}\u0300${tail}`,
    'a character written over with a backspace': `${head}Z\b${tail}`,
    // An attack trial's later spellings: encoded more than once, split by white space, wrapped.
    'percent-encoded twice': `?k=${percentEncoded(key).replace(/%/g, '%25')}`,
    'percent-encoded three times, upper case': percentEncoded(key, () => true, true).replace(/%/g, '%2525'),
    'split by tabs': [...key].join('\t'),
    'split by newlines': `bad key\n${[...key].join('\n')}\n`,
    'split by spaces': `bad key ${[...key].join(' ')}`,
    'split by CR LF': `${head}\r\n${tail}`,
    'URL-encoded, split by encoded tabs': `?k=${[...key].map((c) => encodeURIComponent(c)).join('%09')}`,
    'every other byte percent-encoded, split by spaces': `bad key ${[...key].map((c, i) => (i % 2 ? percentEncoded(c) : c)).join(' ')} end`,
    'base64 wrapped by a newline': `${base64(key8).slice(0, 6)}\n${base64(key8).slice(6)}`,
    'base64 wrapped at 8 columns, CR LF': base64(around(1)).replace(/.{8}/g, '$&\r\n'),
    'HTML hex entities': [...key].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
    'HTML decimal entities': [...key].map((c) => `&#${c.codePointAt(0)};`).join(''),
    '%uXXXX escapes': [...key].map((c) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    '\\u escapes as plain text': [...key]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
    '\\x escapes as plain text': [...key]
      .map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
      .join(''),
    'entities, percent-encoded': [...key].map((c) => `%26%23${c.codePointAt(0)}%3B`).join(''),
    'fullwidth forms': [...key]
      .map((c) => (c > ' ' && c < '\u007f' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join(''),
  };
}

// Escape sequences (CSI, OSC, other two-character ESC forms, C1 CSI), then every other control
// and invisible character: what a terminal shows, or a sanitizer that drops them leaves. The
// invisible ones are Unicode's Default_Ignorable_Code_Point list written out by hand (the SDK
// uses the regex property: each checks the other), and the combining marks, which show nothing
// of their own between two letters.
const SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched alone, on purpose: U+034F and the selectors are what a server puts between the key's characters.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]|\p{M}/gu;

// Every sequence as a terminal reads it (ECMA-48), 7-bit and 8-bit: control strings (OSC, DCS,
// SOS, PM, APC) to their terminator, CSI, and ESC with intermediates (a charset switch, ESC ( B).
const TERMINAL_SEQUENCES =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b[ -/]*[0-~]/g;

/** What a terminal shows once each backspace has stepped back over the character before it. */
function overstruck(text: string): string {
  const shown: string[] = [];
  for (const char of text) {
    if (char === '\b') shown.pop();
    else shown.push(char);
  }
  return shown.join('');
}

function decodedRuns(
  text: string,
  alphabet: RegExp,
  decode: (run: string) => Buffer,
  step: number,
): Buffer[] {
  const found: Buffer[] = [];
  for (const [run] of text.matchAll(alphabet)) {
    for (let shift = 0; shift < step; shift++) found.push(decode(run.slice(shift)));
  }
  return found;
}

/** The bytes `text` percent-decodes to, leniently: a `%` without two hex digits stays; `+` is `plus`. */
function percentDecoded(text: string, plus: string): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < text.length; i++) {
    const pair = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(pair)) {
      parts.push(Buffer.from(pair, 'hex'));
      i += 2;
    } else if (text[i] === '+') parts.push(bytesOf(plus));
    else {
      const char = String.fromCodePoint(text.codePointAt(i)!);
      parts.push(bytesOf(char));
      i += char.length - 1;
    }
  }
  return Buffer.concat(parts);
}

/**
 * `text` with every escape a server may have used undone, again and again (percent, `%u`, `\\u`,
 * `\\x`, HTML numeric entities), under NFKC (fullwidth forms), and then without white space.
 */
function undone(text: string): string {
  let out = text;
  for (let pass = 0; pass < 16; pass++) {
    const next = out
      .normalize('NFKC')
      .replace(/&#[xX]([0-9a-fA-F]+);?/g, (_all, hex: string) =>
        String.fromCodePoint(Number.parseInt(hex, 16)),
      )
      .replace(/&#([0-9]+);?/g, (_all, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/[%\\][uU]([0-9a-fA-F]{4})/g, (_all, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      )
      .replace(/\\x([0-9a-fA-F]{2})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    const bytes = percentDecoded(next, '+').toString('utf8');
    if (bytes === out) break;
    out = bytes;
  }
  return out.replace(/\s+/g, '');
}

/** The spellings of `key` found in `text`: empty when it holds none. */
export function keyLeaks(text: string, key: string): string[] {
  const key8 = bytesOf(key);
  const leaks: string[] = [];
  // Without whole sequences (as the SDK's first pass and as a terminal reads them), and (as a
  // sanitizer that drops only control characters leaves it) without the controls alone.
  const visibles = [
    overstruck(text.replace(SEQUENCES, '')).replace(INVISIBLE, ''),
    text.replace(SEQUENCES, '').replace(INVISIBLE, ''),
    text.replace(TERMINAL_SEQUENCES, '').replace(INVISIBLE, ''),
    text.replace(INVISIBLE, ''),
  ];
  const deep = undone(text);
  const visible = [...visibles, deep, undone(visibles[0]!), text.replace(/\s+/g, '')].join('\n');
  const bare = key.replace(/\s+/g, '');
  // Without white space only for a key with 8 characters besides it, as the redactor does.
  if (!visibles.some((form) => form.includes(key)) && bare.length >= 8 && visible.includes(bare))
    leaks.push('once decoded or without white space');
  if (text.includes(key)) leaks.push('literal');
  else if (visibles.some((form) => form.includes(key))) leaks.push('once controls are dropped');
  if (text.includes(encodeURIComponent(key)) && encodeURIComponent(key) !== key) leaks.push('URL-encoded');
  else if (
    !leaks.includes('literal') &&
    visibles.some(
      (form) => percentDecoded(form, '+').includes(key8) || percentDecoded(form, ' ').includes(key8),
    )
  )
    leaks.push('percent-encoded');
  const base64Runs = decodedRuns(
    visible,
    /[A-Za-z0-9+/]{4,}/g,
    (run) => Buffer.from(run.slice(0, run.length - (run.length % 4)), 'base64'),
    4,
  );
  if (base64Runs.some((bytes) => bytes.includes(key8))) leaks.push('base64');
  const urlRuns = decodedRuns(
    visible,
    /[A-Za-z0-9_-]{4,}/g,
    (run) => Buffer.from(run.slice(0, run.length - (run.length % 4)), 'base64url'),
    4,
  );
  if (urlRuns.some((bytes) => bytes.includes(key8))) leaks.push('base64url');
  const hexRuns = decodedRuns(
    visible,
    /[0-9a-fA-F]{2,}/g,
    (run) => Buffer.from(run.slice(0, run.length - (run.length % 2)), 'hex'),
    2,
  );
  if (hexRuns.some((bytes) => bytes.includes(key8))) leaks.push('hex');
  return leaks;
}
