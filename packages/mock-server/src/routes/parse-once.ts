// Inputs repeat: a client reads the same article again, replays the same key with the same
// body. A valid input's parsed value is kept per schema, so zod runs once per distinct value
// instead of on every request (on the hot routes it cost more than the rule itself). Only
// successes are kept, frozen since every later request shares them; an invalid input is parsed
// each time, so its 422 is built as before. Bounded: a schema's memo that fills up starts over,
// so the cost stays O(1) in time and memory.
const LIMIT = 1024;
const memos = new WeakMap<object, Map<string, unknown>>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** `parse()`'s result for `input` under `schema`, remembered when it is a success. */
export function parseOnce<R extends { ok: boolean }>(schema: object, input: string, parse: () => R): R {
  let memo = memos.get(schema);
  const known = memo?.get(input);
  if (known !== undefined) return known as R;
  const result = parse();
  if (result.ok) {
    if (!memo) {
      memo = new Map();
      memos.set(schema, memo);
    }
    if (memo.size >= LIMIT) memo.clear();
    memo.set(input, deepFreeze(result));
  }
  return result;
}
