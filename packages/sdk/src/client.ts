import type { ClientOptions, NormalizedOptions } from './core/option-types.js';
import { normalizeOptions } from './core/options.js';
import { RAW_REQUEST } from './core/raw-request.js';
import { Articles as ArticlesResource } from './resources/articles.js';
import { Credits as CreditsResource } from './resources/credits.js';
import { Jobs as JobsResource } from './resources/jobs.js';
import { createTransport } from './transport/http.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

// The resources' types as customers name them: interfaces over the classes, so the entry exports
// no class to construct (its constructor takes the internal transport), and the type of
// `client.articles` is one the entry exports, which a customer's declarations can name (TS2742).
/** `client.articles`: read, generate and update articles. */
export interface Articles extends ArticlesResource {}
/** `client.jobs`: look up and wait for generation jobs. */
export interface Jobs extends JobsResource {}
/** `client.credits`: the balance and buying credits. */
export interface Credits extends CreditsResource {}

/**
 * The Profile Article Service client. The API key lives only inside the transport's closure,
 * so neither `util.inspect` nor `JSON.stringify` of the client can reveal it.
 */
export class ProfileArticles {
  readonly articles: Articles;
  readonly jobs: Jobs;
  readonly credits: Credits;
  readonly #options: NormalizedOptions;
  readonly #spent: () => number;

  constructor(options: ClientOptions = {}) {
    const normalized = normalizeOptions(options);
    this.#options = normalized.options;
    const transport = createTransport(normalized.apiKey, normalized.options, normalized.keyFrom);
    this.#spent = transport.spent;
    this.jobs = new JobsResource(transport, normalized.options);
    this.articles = new ArticlesResource(transport, this.jobs, normalized.options.pollIntervalMs);
    this.credits = new CreditsResource(transport, normalized.options.pollIntervalMs);
    // The CLI's `api` command sends one request of its own through this transport (raw-request.ts).
    // Not a member of the class: not public, not enumerable, and it holds no key, only the sender.
    Object.defineProperty(this, RAW_REQUEST, {
      value: { request: transport.request, requestIdOf: transport.requestIdOf },
    });
  }

  /** The API origin this client talks to. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /**
   * Credits this client's calls have been charged, net of the refunds it has seen (a waited or
   * polled job that failed or was cancelled). A call whose answer was lost counts its worst
   * case, so this may be above what the account was charged, never below. Calls under way
   * count once they are answered. This client only: not the account's other clients or keys.
   */
  get spent(): number {
    return this.#spent();
  }

  toJSON(): Record<string, unknown> {
    // Headers and fetch fields may hold secrets of their own (a tracing token, an agent).
    const {
      fetch: _fetch,
      hooks: _hooks,
      log: _log,
      headers: _headers,
      fetchOptions: _fetchOptions,
      // A tracer provider is an object graph of its own.
      tracing: _tracing,
      ...safe
    } = this.#options;
    return { ...safe, apiKey: '[redacted]' };
  }

  [inspectSymbol](): string {
    return `ProfileArticles ${JSON.stringify(this.toJSON())}`;
  }
}
