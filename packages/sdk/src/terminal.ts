// @profile-articles/sdk/internal/terminal: server text made safe to show a person, for the CLI
// and the mock's bin: terminalSafe for a terminal, safeJson for JSON output. Not public, like
// ./internal: it may change in any release, without a major version. An entry of its own that
// imports nothing else, so that a bin can bundle it into its start-up without loading the
// schemas and zod, which ./internal brings.
export { safeJson } from './redaction/safe-json.js';
export { terminalSafe } from './redaction/terminal-safe.js';
