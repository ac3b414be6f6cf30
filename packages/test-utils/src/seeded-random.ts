// The mock's own seeded generator (mulberry32), so a randomised test replays from its seed.
// Re-exported from the source rather than copied: one generator for the product and the tests.
export { seededRandom } from '../../mock-server/src/rules/seeded-random.js';
