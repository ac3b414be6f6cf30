// @profile-articles/mock-server/files: what the mock's --data folder and the CLI's settings and
// batch state share to write files that survive a crash, a full disk and a hostile folder (the
// durable write) and to hold a file for one process at a time across containers (the lock).
// It imports nothing but node:fs, so the CLI bundles it without the rest of the mock. Not
// public, like ./internal: it may change in any release, without a major version.

export * from './data/durable-file.js';
// The folder checks of --data, which the CLI's settings folder gets too (in its own words).
export { type FolderWords, prepareDataFolder } from './data/folder-checks.js';
export * from './data/lock.js';
export { ConfigError } from './rules/config-error.js';
