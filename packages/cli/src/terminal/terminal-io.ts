// The one boundary between the CLI and a person's terminal. `run()` wraps stdout and stderr in
// `terminalIo`, so every write, by any command, passes through `forTerminal`: every control
// character in it is removed (the SDK's terminalSafe) but the ones the CLI wrote on purpose, its
// colours (style.ts) and its line clearing. Those are marked by `own()` with a token drawn at
// start-up, which a server cannot know: no text from a server, wherever a command puts it, can
// pass for the CLI's own.

import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import type { Io, Stream } from './io.js';

// Kept on the process rather than in this module: the built CLI holds more than one copy of it
// (the bin's bundle and the chunks it loads later), and all must know one token and one key.
const shared = globalThis as typeof globalThis & Record<symbol, string | undefined>;
const TOKEN_KEY = Symbol.for('profile-articles.cli.own-controls');
shared[TOKEN_KEY] ??=
  `\ue000${Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('')}\ue000`;
const TOKEN = shared[TOKEN_KEY];
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `sequence`, whose control characters are the CLI's own: `forTerminal` keeps them. */
export const own = (sequence: string): string =>
  sequence.replace(/[\u0000-\u001f\u007f-\u009f]/g, (control) => `${TOKEN}${control}`);

/** `text` as it may reach a terminal: only the CLI's own control characters are left in it. */
export function forTerminal(text: string): string {
  if (!text.includes(TOKEN)) return terminalSafe(text, 'lines');
  const [first = '', ...marked] = text.split(TOKEN);
  let out = terminalSafe(first, 'lines');
  for (const piece of marked) {
    // Each token stands before exactly one control character of the CLI's.
    const kept = CONTROL.test(piece.charAt(0)) ? piece.charAt(0) : '';
    out += kept + terminalSafe(piece.slice(kept.length), 'lines');
  }
  return out;
}

const OWN_STYLE = new RegExp(`${TOKEN}\\u001b\\[[0-9;]*m`, 'g');

/** `text` without the CLI's own colours: what a terminal shows of it, for measuring widths. */
export const withoutOwnStyle = (text: string): string => text.replace(OWN_STYLE, '');

const UNFILTERED = Symbol.for('profile-articles.cli.unfiltered');

function filtered(stream: Stream): Stream {
  return Object.defineProperties(
    { write: (chunk: string) => stream.write(forTerminal(String(chunk))) },
    {
      isTTY: { get: () => stream.isTTY, enumerable: true },
      columns: { get: () => stream.columns, enumerable: true },
      rows: { get: () => stream.rows, enumerable: true },
      [UNFILTERED]: { value: stream },
    },
  );
}

/**
 * The stream under the filter, for a library that writes its own escape sequences around text
 * the CLI made safe itself (ora's spinner) or needs a whole Node stream (readline).
 */
export const unfiltered = (stream: Stream): Stream =>
  (stream as Stream & { [UNFILTERED]?: Stream })[UNFILTERED] ?? stream;

/** `io` with stdout and stderr filtered; each is taken from `io` only when first used, as `processIo` wants. */
export function terminalIo(io: Io): Io {
  let stdout: Stream | undefined;
  let stderr: Stream | undefined;
  return {
    get stdout() {
      stdout ??= filtered(io.stdout);
      return stdout;
    },
    get stderr() {
      stderr ??= filtered(io.stderr);
      return stderr;
    },
    get stdin() {
      return io.stdin;
    },
    env: io.env,
  };
}
