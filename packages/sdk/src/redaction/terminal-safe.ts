// Text from a server, made safe to show in a terminal, for the CLI's one boundary to a person's
// terminal (cli/src/terminal-io.ts) and for `profile-articles-mock verify`, through
// `@profile-articles/sdk/internal/terminal`. A terminal acts on control characters:
// escape sequences set its title (OSC 0/2), write the clipboard (OSC 52), clear the screen, draw
// hyperlinks (OSC 8) and move the cursor; `\r` and backspace write over what is shown. So every
// control character is removed: a complete escape sequence (ESC or its 8-bit C1 form, with its
// parameters and text) as a whole, anything else (a lone ESC, C0, DEL, C1) on its own, and the
// bidirectional controls that would show text in another order than it is written, with every
// other default-ignorable code point (zero-width marks, variation selectors, tag characters…):
// they show nothing, so a word or an API key split by them reads whole while a search for it
// fails. Emoji joined by U+200D or styled by U+FE0F show as their parts: a small price.
//
// Removed rather than shown (as `^[` or U+FFFD): a person reading an article has no use for the
// codes, and removing a sequence whole joins the text it split, so that what is shown is what a
// search for a word (or for the API key, when the key is scrubbed after this) finds.
// Pure, and free of any colours of its own: a caller adds its own after (the CLI's style.ts).

import { CONTROL_CLASS, DEFAULT_IGNORABLE_CLASS } from './invisible.js';

/**
 * Where the text is shown: `line` is one field of one line (a title, an error, a URL), whose
 * line breaks and tabs become spaces; `lines` is text with its own layout (an article's content),
 * whose line breaks (`\r\n`, `\r` or `\n`) become `\n` and whose tabs stay.
 */
type Layout = 'line' | 'lines';

/**
 * Every escape sequence, ECMA-48, in the 7-bit (ESC …) and 8-bit (C1) forms a terminal may act
 * on. The key's redactor (redact.ts) removes the same, so that a key split by any of them is
 * caught before this joins it.
 */
export const SEQUENCE = new RegExp(
  [
    // CSI: parameters, intermediates, one final byte (colours, cursor moves, erasing).
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]',
    // OSC, DCS, SOS, PM, APC: a text of no control character, then BEL or ST. One left open is
    // not taken to the end: only its introducer goes (below), so it cannot hide the text after
    // it. The text stops at any control, the next introducer too: each is scanned once, where a
    // text that ran on over introducers made a long line of them quadratic (a hostile server's
    // 1 MB of U+009D took minutes).
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0000-\\u001f\\u007f-\\u009f]*(?:\\u0007|\\u001b\\\\|\\u009c)',
    // Any other escape: ESC, intermediates, one final byte (ESC c resets, ESC 7 saves the cursor…).
    '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]',
  ].join('|'),
  'g',
);
const LINE_BREAK = /\r\n?|\n/g;
const LINE_BREAK_OR_TAB = /\r\n?|[\n\t]/g;
/** C0 but newline and tab, DEL, C1, and the default-ignorable code points (bidi controls among them). */
const CONTROL = new RegExp(`[${CONTROL_CLASS}${DEFAULT_IGNORABLE_CLASS}]`, 'gu');

/** `text` without a control character a terminal would act on; see {@link Layout}. */
export function terminalSafe(text: string, layout: Layout = 'line'): string {
  const bare = text.replace(SEQUENCE, '');
  return layout === 'lines'
    ? bare.replace(LINE_BREAK, '\n').replace(CONTROL, '')
    : bare.replace(LINE_BREAK_OR_TAB, ' ').replace(CONTROL, '');
}
