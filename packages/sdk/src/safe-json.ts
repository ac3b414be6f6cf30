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

type Frame = { items: Array<[string | undefined, unknown]>; next: number; depth: number; close: string };

/**
 * JSON.stringify for plain JSON data (what JSON.parse makes), with an explicit stack instead of
 * recursion: a server's value nested 20,000 deep overflows JSON.stringify's, and that must not
 * crash a command after its read was charged. The same text JSON.stringify writes.
 */
function stringifyWithoutRecursion(root: unknown, indent: string): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  // Indented, 20,000 levels would be gigabytes of spaces: the indent stops growing at MAX_INDENT.
  const newline = (depth: number) => (indent ? `\n${indent.repeat(Math.min(depth, MAX_INDENT))}` : '');
  const open = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
      return;
    }
    const isArray = Array.isArray(value);
    const items: Frame['items'] = isArray
      ? value.map((item): [undefined, unknown] => [undefined, item])
      : Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
    if (items.length === 0) out.push(isArray ? '[]' : '{}');
    else {
      out.push(isArray ? '[' : '{');
      stack.push({ items, next: 0, depth: depth + 1, close: isArray ? ']' : '}' });
    }
  };
  open(root, 0);
  for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
    if (frame.next === frame.items.length) {
      stack.pop();
      out.push(`${newline(frame.depth - 1)}${frame.close}`);
      continue;
    }
    const [key, value] = frame.items[frame.next++] as [string | undefined, unknown];
    const name = key === undefined ? '' : `${JSON.stringify(key)}:${indent ? ' ' : ''}`;
    out.push(`${frame.next > 1 ? ',' : ''}${newline(frame.depth)}${name}`);
    open(value, frame.depth);
  }
  return out.join('');
}

function stringify(value: unknown, indent: number | undefined): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyWithoutRecursion(value, ' '.repeat(indent ?? 0));
  }
}

/** JSON.stringify(value, null, indent), with no DEL, C1, default-ignorable or separator left raw. */
export function safeJson(value: unknown, indent?: number): string {
  // Such a character only ever stands inside a string, never after a backslash that escapes it.
  return stringify(value, indent).replace(RAW, escaped);
}
