import { DEFAULT_IGNORABLE_CLASS } from '@profile-articles/sdk/internal';

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

/** JSON.stringify(value, null, indent), with no DEL, C1, default-ignorable or separator left raw. */
export function safeJson(value: unknown, indent?: number): string {
  // Such a character only ever stands inside a string, never after a backslash that escapes it.
  return JSON.stringify(value, null, indent).replace(RAW, escaped);
}
