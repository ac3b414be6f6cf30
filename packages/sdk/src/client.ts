import { createTransport } from './http.js';
import { type ClientOptions, type NormalizedOptions, normalizeOptions } from './options.js';
import { Articles } from './resources/articles.js';
import { Credits } from './resources/credits.js';
import { Jobs } from './resources/jobs.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Profile Article Service client. The API key lives only inside the transport's closure,
 * so neither `util.inspect` nor `JSON.stringify` of the client can reveal it.
 */
export class ProfileArticles {
  readonly articles: Articles;
  readonly jobs: Jobs;
  readonly credits: Credits;
  readonly #options: NormalizedOptions;

  constructor(options: ClientOptions = {}) {
    const normalized = normalizeOptions(options);
    this.#options = normalized.options;
    const transport = createTransport(normalized.apiKey, normalized.options);
    this.jobs = new Jobs(transport, normalized.options);
    this.articles = new Articles(transport, this.jobs);
    this.credits = new Credits(transport);
  }

  /** The API origin this client talks to. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  toJSON(): Record<string, unknown> {
    // Headers and fetch fields may hold secrets of their own (a tracing token, an agent).
    const {
      fetch: _fetch,
      hooks: _hooks,
      log: _log,
      headers: _headers,
      fetchOptions: _fetchOptions,
      ...safe
    } = this.#options;
    return { ...safe, apiKey: '[redacted]' };
  }

  [inspectSymbol](): string {
    return `ProfileArticles ${JSON.stringify(this.toJSON())}`;
  }
}
