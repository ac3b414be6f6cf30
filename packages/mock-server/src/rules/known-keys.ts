// An in-process filter object (service.journal, service.countRequests) checked for keys it does
// not know: the same typo over HTTP is a 422 naming the parameter, and a filter ignored in
// process would match everything, so an assertion such as "called once" would test nothing.
import { ConfigError } from './config-error.js';

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Throws a ConfigError naming the first key of `query` that is not one of `known`. */
export function checkKnownKeys(query: unknown, known: readonly string[], what: string): void {
  if (query === undefined) return;
  if (query === null || typeof query !== 'object' || Array.isArray(query))
    throw new ConfigError(`Invalid ${what}: expected an object of filters`);
  for (const key of Object.keys(query)) {
    if (known.includes(key)) continue;
    const meant = known.includes(camel(key)) ? ` (did you mean "${camel(key)}"?)` : '';
    throw new ConfigError(
      `Invalid ${what}: unknown filter "${key}"${meant}; the filters are ${known.join(', ')}`,
    );
  }
}
