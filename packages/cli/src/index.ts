// Programmatic entry of @profile-articles/cli: run the CLI in-process with your own streams.
export { CliError } from './errors/errors.js';
export { ExitCode, type ExitCodeValue } from './errors/exit-codes.js';
export { run } from './main.js';
export type { Io, Stream } from './terminal/io.js';
