// Where a JSON text breaks, found without JSON.parse's message: that message quotes the text
// around the error (in a mock config, an API key) and names an offset only for some errors.

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

/** The offset of the first character at which `text` stops being JSON, or -1 when it is JSON. */
function brokenAt(text: string): number {
  let at = 0;
  const take = (pattern: RegExp) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match === null) return false;
    at += match[0].length;
    return true;
  };
  const space = () => take(WHITESPACE);
  // Each returns false at the offset where it fails; nesting is as deep as the text, as in JSON.parse.
  const value = (): boolean => {
    space();
    const char = text[at];
    if (char === '{') return members('}', property);
    if (char === '[') return members(']', value);
    return take(STRING) || take(NUMBER) || take(LITERAL);
  };
  const property = (): boolean => {
    if (!take(STRING)) return false;
    space();
    if (text[at] !== ':') return false;
    at++;
    return value();
  };
  const members = (close: string, member: () => boolean): boolean => {
    at++;
    space();
    if (text[at] === close) return ++at > 0;
    for (;;) {
      space();
      if (!member()) return false;
      space();
      if (text[at] === close) return ++at > 0;
      if (text[at] !== ',') return false;
      at++;
    }
  };
  if (!value()) return at;
  space();
  return at === text.length ? -1 : at;
}

/** ` (line L, column C)` where `text` stops being JSON, or '' when it is JSON. */
export function whereJsonBreaks(text: string): string {
  let at: number;
  try {
    at = brokenAt(text);
  } catch {
    return ''; // Nested deeper than the stack: no place to name.
  }
  if (at < 0) return '';
  const lines = text.slice(0, at).split('\n');
  return ` (line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1})`;
}
