import { DEFAULT_IGNORABLE_CLASS } from './invisible.js';

// JSON for output: the value JSON.stringify writes, with the characters it leaves raw but a
// terminal or an editor acts on written as \u escapes: DEL, C1 (0x9b is CSI), the bidirectional
// controls that show text in another order (and every other default-ignorable code point, which
// shows nothing and so could split an API key invisibly), and the line and paragraph separators. The JSON
// value stays the same (C0 is escaped by JSON.stringify already); a program reads what the
// server sent, and a person who looks at the output sees nothing move.
const RAW = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${DEFAULT_IGNORABLE_CLASS}]`, 'gu');

/** `\u` escapes of each UTF-16 unit: a tag character (U+E0020) is `\udb40\udc20`, as JSON spells it. */
const escaped = (raw: string) =>
  Array.from({ length: raw.length }, (_, i) => `\\u${raw.charCodeAt(i).toString(16).padStart(4, '0')}`).join(
    '',
  );

const MAX_INDENT = 64;

/**
 * JSON.stringify for plain JSON data (what JSON.parse makes), with an explicit stack instead of
 * recursion: a server's value nested 20,000 deep overflows JSON.stringify's, and that must not
 * crash a command after its read was charged. The same value JSON.stringify writes; indented,
 * only the first MAX_INDENT levels are on lines of their own, the deeper ones compact: 4,000,000
 * levels on lines of their own were gigabytes of spaces ("Invalid string length", an attack
 * trial), and an 8 MB answer stays about 8 MB. The stack is flat arrays, not a frame object
 * per level, and the text is joined in flat pieces: at that depth both counted in hundreds of MB.
 */
function stringifyWithoutRecursion(root: unknown, indent: string, limit = Number.POSITIVE_INFINITY): string {
  // Flat pieces: `+=` of millions of bits is a rope of as many cells until it is read.
  const chunks: string[] = [];
  const pieces: string[] = [];
  let written = 0;
  const write = (text: string) => {
    pieces.push(text);
    written += text.length;
    if (pieces.length === 8192) chunks.push(pieces.splice(0).join(''));
  };
  // The stack: each open container, the next index of each (a typed array, doubled as needed),
  // and the keys of each open object (arrays need none).
  const containers: unknown[] = [];
  let next = new Int32Array(1024);
  const keyStack: string[][] = [];
  const newline = (depth: number) => (indent && depth <= MAX_INDENT ? `\n${indent.repeat(depth)}` : '');
  const keysOf = (value: object) =>
    Object.keys(value).filter((key) => {
      const item = (value as Record<string, unknown>)[key];
      return item !== undefined && typeof item !== 'function';
    });
  const open = (value: unknown) => {
    if (value === null || typeof value !== 'object') {
      write(JSON.stringify(value) ?? 'null');
      return;
    }
    const isArray = Array.isArray(value);
    const keys = isArray ? undefined : keysOf(value);
    if ((keys ?? (value as unknown[])).length === 0) {
      write(isArray ? '[]' : '{}');
      return;
    }
    write(isArray ? '[' : '{');
    if (keys) keyStack.push(keys);
    if (containers.length === next.length) {
      const grown = new Int32Array(next.length * 2);
      grown.set(next);
      next = grown;
    }
    next[containers.length] = 0;
    containers.push(value);
  };
  open(root);
  while (containers.length > 0 && written < limit) {
    const depth = containers.length;
    const container = containers[depth - 1] as Record<string, unknown>;
    const keys = Array.isArray(container) ? undefined : keyStack[keyStack.length - 1];
    const at = next[depth - 1] as number;
    if (at === (keys ?? (container as unknown as unknown[])).length) {
      containers.pop();
      if (keys) keyStack.pop();
      write(`${newline(depth - 1)}${keys ? '}' : ']'}`);
      continue;
    }
    next[depth - 1] = at + 1;
    const key = keys?.[at];
    const name = key === undefined ? '' : `${JSON.stringify(key)}:${indent ? ' ' : ''}`;
    write(`${at > 0 ? ',' : ''}${newline(depth)}${name}`);
    open(key === undefined ? container[at] : container[key]);
  }
  chunks.push(pieces.join(''));
  return chunks.join('');
}

function stringify(value: unknown, indent: number | undefined, limit: number | undefined): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyWithoutRecursion(value, ' '.repeat(indent ?? 0), limit);
  }
}

/**
 * JSON.stringify(value, null, indent), with no DEL, C1, default-ignorable or separator left raw.
 * `excerpt`: only about that many characters are needed (a one-line cell), so a value nested
 * beyond the stack is written only that far, not whole (4,000,000 levels cost 400 MB to cut to 200).
 */
export function safeJson(value: unknown, indent?: number, excerpt?: number): string {
  // Such a character only ever stands inside a string, never after a backslash that escapes it.
  return stringify(value, indent, excerpt).replace(RAW, escaped);
}
