// What `buy --open` may hand the system's opener, and handing it over. The address comes from the
// server: an opener given file:, javascript:, data: or a scheme handler's address runs or shows
// something on this machine, so only a web page is opened, over https, or plain http on this
// machine (the mock) when the server the CLI talks to is on this machine too: a server elsewhere
// that names http://127.0.0.1:631/admin/… points the browser at a local service's admin page
// (attack trial), which no payment page of its own can be. Anything else is refused with the
// address shown, made safe to print.
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { isLoopbackHost } from '../settings/loopback.js';

// Controls (C0, space, DEL, C1) and the invisible ones that reorder or hide text: no address a
// person can check by eye holds them, and a terminal or an opener may act on them.
const UNSAFE = /[\u0000-\u0020\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
const SHOWN_MAX = 200;

/**
 * The address as one printable line: quoted, every control or invisible character written as a
 * `\u` escape, cut to a readable length. Escaped rather than removed, as the SDK's terminalSafe
 * would: a refusal should show what was there, and an address with an escape sequence or a
 * zero-width space removed would look like one that could have been opened. The escaped text
 * holds no control character, so terminal-io.ts lets it through as it is.
 */
function shown(address: string): string {
  const cut = address.length > SHOWN_MAX ? `${address.slice(0, SHOWN_MAX)}…` : address;
  const escaped = cut.replace(/["\\]/g, '\\$&').replace(UNSAFE_ALL, (c) => {
    if (c === ' ') return ' ';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

/** Whether `origin` (the base URL) is a server on this machine; anything unparseable is not. */
function isLocalOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * The address to open, as the URL parser writes it; a CliError (exit 1) for any other. `origin`
 * is the base URL the CLI talks to: plain http on this machine is opened only when it is local.
 */
export function openableAddress(address: string, origin: string): string {
  const refuse = (why = 'only https addresses, or http on this computer, are opened') =>
    new CliError(`Refused to open the payment page ${shown(address)}: ${why}.`, ExitCode.Failure);
  if (UNSAFE.test(address)) throw refuse();
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse();
  }
  if (url.protocol === 'https:') return url.href;
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) throw refuse();
  if (!isLocalOrigin(origin)) {
    throw refuse(
      'a server on another computer named a page on this one; only https addresses are opened from it',
    );
  }
  return url.href;
}

/** True when a browser launcher started and did not fail within a moment. */
export async function openInBrowser(address: string, origin: string): Promise<boolean> {
  try {
    const { default: open } = await import('open');
    const launcher = await open(openableAddress(address, origin));
    // Launchers (xdg-open, open) exit at once; a non-zero code means no browser was found.
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(0), 2000);
      launcher.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    return code === 0;
  } catch {
    return false;
  }
}
