// The interface contract as zod schemas: one file per resource. The contract table that
// binds them to paths and statuses (endpoints.ts) is internal: see ../internal.ts.
// Built on `zod/mini` so that the SDK stays small when bundled (see docs/decisions/0002-zod-mini.md).
export * from './article.js';
export * from './credits.js';
export * from './error-body.js';
export * from './job.js';
export * from './profile-request.js';
export * from './source.js';
