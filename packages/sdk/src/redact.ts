// Keeps the client's own API key out of everything a server can put into an SDK error, a log
// line or a hook argument: a hostile or careless server may echo the key back in `detail`, in a
// header or in a job's `error`.

const REDACTED = '[redacted]';

export interface Redactor {
  /** The text with every occurrence of the key replaced. */
  text(value: string): string;
  /** A JSON value with the key replaced in every string and property name. */
  json<T>(value: T): T;
  /** An error from fetch as given, or a copy whose message, stack and fields no longer hold the key. */
  cause(error: unknown): unknown;
  /** `JSON.parse`, with the key replaced in every string and name, whatever escapes spelled it. */
  parse(text: string): unknown;
}

function formsOf(secret: string): string[] {
  let encoded = secret;
  try {
    encoded = encodeURIComponent(secret);
  } catch {
    // Not well-formed: only the literal form can occur.
  }
  return [...new Set([secret, encoded])].filter((form) => form.length > 0);
}

export function createRedactor(secret: string): Redactor {
  const forms = formsOf(secret);
  const mentions = (value: string) => forms.some((form) => value.includes(form));
  const text = (value: string) =>
    mentions(value) ? forms.reduce((out, form) => out.split(form).join(REDACTED), value) : value;

  function errorMentions(error: Error): boolean {
    if (mentions(String(error.message)) || mentions(String(error.stack))) return true;
    return Object.values(error).some((field) => typeof field === 'string' && mentions(field));
  }

  function cause(error: unknown, depth = 0): unknown {
    if (!(error instanceof Error) || depth > 4) return error;
    const inner = cause(error.cause, depth + 1);
    if (inner === error.cause && !errorMentions(error)) return error;
    const copy = new Error(text(String(error.message)), inner === undefined ? undefined : { cause: inner });
    copy.name = error.name;
    copy.stack = text(String(error.stack));
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') Object.assign(copy, { code });
    return copy;
  }

  // JSON.parse calls it bottom-up, so each object only checks its own property names.
  function reviver(_name: string, value: unknown): unknown {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    if (!Object.keys(value).some(mentions)) return value;
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [text(name), item]));
  }

  // Without a backslash every string of the text is spelled literally, so a key the text does
  // not mention cannot be in any of them: the plain parse, several times faster than a reviver.
  const parse = (body: string): unknown =>
    body.includes('\\') || mentions(body) ? JSON.parse(body, reviver) : JSON.parse(body);

  return {
    text,
    // Server data is JSON: a copy through the same parse, whatever escapes the text needed.
    json: <T>(value: T) => (value === undefined ? value : (parse(JSON.stringify(value)) as T)),
    cause: (error) => cause(error),
    parse,
  };
}
