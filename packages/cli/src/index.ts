// Programmatic entry of @profile-articles/cli: run the CLI in-process with your own streams.
export { CliError } from './errors.js';
export { ExitCode, type ExitCodeValue } from './exit-codes.js';
export type { Io, Stream } from './io.js';
export { run } from './main.js';
