// The process's streams and environment, passed in so commands can run in tests.
export interface Stream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** The terminal's size, when it is one. */
  columns?: number;
  rows?: number;
}

export interface Io {
  stdout: Stream;
  stderr: Stream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
}

/**
 * The process's own. Getters, because Node builds each stream the first time it is asked for
 * and stdin (a TTY or socket reader) costs start-up that --help and most commands never use.
 */
export function processIo(): Io {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}
