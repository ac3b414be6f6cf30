// The JSON text of objects their owner never changes (a rendered article, shared by every
// answer that shows it), kept as long as the object lives, so an answer that repeats one does
// not serialise its 1.5 KB again: that was a fifth of a replay's time in the handler. Memory
// follows the objects: for articles, the bounded cache of rendered ones.
const texts = new WeakMap<object, string | undefined>();

/** Declares `value` never to change again: its JSON text may be kept. */
export function markUnchanging(value: object): void {
  texts.set(value, undefined);
}

/** Whether `value` was marked unchanging. */
export function isUnchanging(value: object): boolean {
  return texts.has(value);
}

/**
 * The JSON text of a value marked unchanging (made once, with the kept text of any unchanging
 * member spliced in: a read's answer reuses its article's), or undefined for any other.
 */
export function unchangingJson(value: object): string | undefined {
  if (!texts.has(value)) return undefined;
  let text = texts.get(value);
  if (text === undefined) {
    text = splicedJson(value);
    texts.set(value, text);
  }
  return text;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** `JSON.stringify(value)`, with the kept text of any unchanging member spliced in. */
function splicedJson(value: unknown): string {
  if (!isObject(value) || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.entries(value);
  if (!entries.some(([, inner]) => isObject(inner) && texts.has(inner))) return JSON.stringify(value);
  const parts: string[] = [];
  for (const [key, inner] of entries) {
    const text = (isObject(inner) ? unchangingJson(inner) : undefined) ?? JSON.stringify(inner);
    // JSON.stringify leaves out a member whose value has no JSON (undefined, a function).
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * `JSON.stringify(body)`, the same text, with the kept text of any unchanging value one level
 * down (a ReadResponse's or a Job's article) spliced in instead of serialised again.
 */
export function toJsonText(body: unknown): string {
  // A body marked unchanging as a whole (a balance, a read's answer) gives its kept text.
  const kept = isObject(body) ? unchangingJson(body) : undefined;
  if (kept !== undefined) return kept;
  // A value that keeps its own text (an ended job) gives it.
  if (isObject(body) && typeof (body as { toJsonText?: unknown }).toJsonText === 'function')
    return (body as { toJsonText(): string }).toJsonText();
  // What JSON.stringify would serialise: a job answers through its toJSON().
  const value =
    isObject(body) && typeof (body as { toJSON?: unknown }).toJSON === 'function'
      ? (body as { toJSON(key: string): unknown }).toJSON('')
      : body;
  return splicedJson(value);
}
