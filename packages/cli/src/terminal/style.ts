// A few ANSI styles, only on a terminal and never with NO_COLOR (https://no-color.org).
// Their escape codes are marked as the CLI's own, so the output boundary (terminal-io.ts) keeps
// them while it removes every other control character.
import type { Io, Stream } from './io.js';
import { own } from './terminal-io.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
}

const wrap = (open: number, close: number) => {
  const [start, end] = [own(`\u001b[${open}m`), own(`\u001b[${close}m`)];
  return (text: string) => `${start}${text}${end}`;
};

export const plain: Style = {
  bold: String,
  dim: String,
  green: String,
  red: String,
  yellow: String,
  cyan: String,
  italic: String,
  underline: String,
};
const ansi: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  green: wrap(32, 39),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  italic: wrap(3, 23),
  underline: wrap(4, 24),
};

export function colorsFor(stream: Stream, env: Io['env']): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return stream.isTTY && !noColor && env.TERM !== 'dumb' ? ansi : plain;
}
