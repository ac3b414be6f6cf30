// A browser that only writes down what it was asked to open, for tests of code that opens pages
// through the system's opener. On Linux without a desktop, xdg-open (also the copy the `open`
// package ships) hands any address it is given to $BROWSER: give a spawned program `env` and
// every address that reached the opener lands in `calls()`.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeBrowser {
  /** For the spawned program: $BROWSER set, and no desktop for xdg-open to prefer. */
  env: Record<string, string | undefined>;
  /** Every address opened so far. */
  calls(): string[];
  /** The first address opened, once one is (the opener may outlive the program that called it). */
  firstCall(): Promise<string>;
}

export function fakeBrowser(): FakeBrowser {
  const dir = mkdtempSync(join(tmpdir(), 'pa-browser-'));
  const calls = join(dir, 'calls');
  const script = join(dir, 'browser');
  // One file per call, written aside and renamed into place: a file seen is a call complete.
  writeFileSync(
    script,
    `#!/bin/sh\nprintf '%s' "$1" > '${calls}/.$$' && mv '${calls}/.$$' '${calls}/call-$$'\n`,
  );
  chmodSync(script, 0o755);
  mkdirSync(calls);
  const read = () =>
    readdirSync(calls)
      .filter((name) => name.startsWith('call-'))
      .map((name) => readFileSync(join(calls, name), 'utf8'));
  return {
    env: {
      BROWSER: script,
      DISPLAY: undefined,
      WAYLAND_DISPLAY: undefined,
      XDG_CURRENT_DESKTOP: undefined,
      DESKTOP_SESSION: undefined,
    },
    calls: read,
    firstCall: () =>
      new Promise((resolve) => {
        const watcher = watch(calls, () => {
          const [first] = read();
          if (first === undefined) return;
          watcher.close();
          resolve(first);
        });
        const [first] = read();
        if (first !== undefined) {
          watcher.close();
          resolve(first);
        }
      }),
  };
}
