// The public surface of @profile-articles/mock-server.
export {
  type AccountConfig,
  ConfigError,
  DEFAULT_CREDIT_PRICE_CENTS,
  DEFAULT_JOB_TIMES,
  DEMO_ACCOUNT,
  type MockConfig,
  type NormalizedConfig,
  type NormalizedSeedArticle,
  normalizeConfig,
  PAYMENT_MODES,
  type PaymentMode,
  parseConfigText,
  type SeedArticle,
} from './config/config.js';
export type { RequestLogEntry } from './console/request-log.js';
export { DEFAULT_HOST, DEFAULT_PORT } from './flags.js';
export type { Transport } from './http/transport.js';
export { type MockServer, type StartOptions, startMockServer } from './node.js';
export { payCheckoutPage } from './routes/pay-page.js';
export type { BodyExcerpt } from './rules/body-excerpt.js';
export { MAX_CLOCK_MS } from './rules/clock.js';
export type { JournalEntry, JournalQuery } from './rules/journal.js';
export type { NormalizedAccount } from './rules/money/accounts.js';
export type { LedgerEntry } from './rules/money/ledger.js';
export {
  FAULT_KINDS,
  FAULT_ROUTES,
  type FaultKind,
  type FaultRoute,
  type FaultsConfig,
} from './rules/request/faults.js';
export type {
  StubHandle,
  StubInput,
  StubMatch,
  StubOutcome,
  StubView,
} from './rules/request/stubs.js';
export { createMockService, MAX_BODY_BYTES, type MockService, type MockServiceOptions } from './service.js';
export type { LedgerReport, StatsReport } from './state/inspection.js';
export type { RequestCount, RequestCountQuery } from './state/request-count.js';
// What `service.state()` hands tests that look behind the HTTP surface: exported so that a
// project compiled with `declaration: true` can name what it infers from it.
export type * from './state/state-types.js';
