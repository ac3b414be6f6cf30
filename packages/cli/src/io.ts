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

export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}
