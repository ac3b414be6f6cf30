// JSON for output: the value JSON.stringify writes, with the characters it leaves raw but a
// terminal or an editor acts on written as \u escapes: DEL, C1 (0x9b is CSI), the bidirectional
// controls that show text in another order, and the line and paragraph separators. The JSON
// value stays the same (C0 is escaped by JSON.stringify already); a program reads what the
// server sent, and a person who looks at the output sees nothing move.
const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON.stringify(value, null, indent), with no DEL, C1, bidi control or separator left raw. */
export function safeJson(value: unknown, indent?: number): string {
  // Such a character only ever stands inside a string, never after a backslash that escapes it.
  return JSON.stringify(value, null, indent).replace(
    RAW,
    (raw) => `\\u${raw.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
