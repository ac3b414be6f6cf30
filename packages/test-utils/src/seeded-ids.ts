// Ids a deterministic run can predict: the n-th id the mock makes is `seededId(n)`, a valid
// UUID v4 shape (the API's job ids are UUIDs), so a test can name a job before it exists.

/** The n-th id (1-based) of a run that uses `seededIds()`. */
export const seededId = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A `newId` for `createMockService(config, { newId })`: 1, 2, 3… as `seededId` gives them. */
export function seededIds(): () => string {
  let n = 0;
  return () => seededId(++n);
}
