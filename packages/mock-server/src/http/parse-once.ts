// Inputs repeat: a client reads the same article again, replays the same key with the same
// body. A valid input's parsed value is kept per schema, so zod runs once per distinct value
// instead of on every request (on the hot routes it cost more than the rule itself). Only
// successes are kept, frozen since every later request shares them; an invalid input is parsed
// each time, so its 422 is built as before.
//
// Bounded in entries and in bytes, whatever the inputs: an input longer than KEPT_INPUT_CHARS
// is parsed every time and never kept (an identifier, a key or a generate's body is far shorter;
// a valid body padded to 1 MiB is not, and keeping those by their text grew the mock by 640 MiB
// in 600 requests), and a schema's memo that would pass KEPT_ENTRIES inputs or KEPT_CHARS
// characters of them starts over.

const KEPT_ENTRIES = 1024;
/** The longest input kept: room for a generate body with a 200-character id, twice over. */
export const KEPT_INPUT_CHARS = 512;
/** Characters of kept inputs per schema: 1,024 inputs of 256 (a memo holds at most about 512 KiB). */
export const KEPT_CHARS = 256 * 1024;

interface Memo {
  results: Map<string, unknown>;
  /** The kept inputs' characters, summed. */
  chars: number;
}

const memos = new WeakMap<object, Memo>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** `parse()`'s result for `input` under `schema`, remembered when it is a success and `input` is short. */
export function parseOnce<R extends { ok: boolean }>(schema: object, input: string, parse: () => R): R {
  let memo = memos.get(schema);
  const known = memo?.results.get(input);
  if (known !== undefined) return known as R;
  const result = parse();
  if (result.ok && input.length <= KEPT_INPUT_CHARS) {
    if (!memo) {
      memo = { results: new Map(), chars: 0 };
      memos.set(schema, memo);
    }
    if (memo.results.size >= KEPT_ENTRIES || memo.chars + input.length > KEPT_CHARS) {
      memo.results.clear();
      memo.chars = 0;
    }
    memo.results.set(input, deepFreeze(result));
    memo.chars += input.length;
  }
  return result;
}

/** What a schema's memo keeps now, for the test that proves the bounds. */
export function keptBy(schema: object): { entries: number; chars: number } {
  const memo = memos.get(schema);
  return { entries: memo?.results.size ?? 0, chars: memo?.chars ?? 0 };
}
