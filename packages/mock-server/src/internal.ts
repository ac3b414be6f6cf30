// @profile-articles/mock-server/internal: what the CLI's `profile-articles mock` shares with
// the mock's own bin (one flag parser, one runner). Not public: it may change in any release,
// without a major version.

export { mockStartFailure, type StartFailure } from './console/start-failure.js';
export { type MockFlags, mockOptionsFromFlags } from './flags.js';
export { type RunMockOptions, runMockCommand } from './run.js';
