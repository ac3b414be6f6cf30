import { type ApiPromise, apiPromise } from './core/api-promise.js';
import type { ClientOptions, NormalizedOptions } from './core/option-types.js';
import { normalizeOptions } from './core/options.js';
import type { RawRequest } from './core/raw-request.js';
import { Articles as ArticlesResource } from './resources/articles.js';
import { Credits as CreditsResource } from './resources/credits.js';
import { Jobs as JobsResource } from './resources/jobs.js';
import { type ClientTransport, createTransport, type Inherited } from './transport/http.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * Options a client was made with that the caller did not write: the caller's own (`GIVEN`,
 * set by the Node entry, which fills in its default fetch) and what `withOptions()` shares
 * (`INHERITED`). Symbols of this bundle: no caller's options have them by chance.
 */
export const GIVEN = Symbol('given options');
const INHERITED = Symbol('inherited');

type Internal = ClientOptions & { [GIVEN]?: ClientOptions; [INHERITED]?: Inherited };

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
  readonly #transport: ClientTransport;
  /** The options as the caller gave them, which `withOptions()` starts from. */
  readonly #given: ClientOptions;

  constructor(options: ClientOptions = {}) {
    const { [GIVEN]: given, [INHERITED]: inherited, ...rest } = options as Internal;
    const normalized = normalizeOptions(rest);
    this.#options = normalized.options;
    // Without what was inherited: a derived client does not keep its original alive.
    const { [INHERITED]: _inherited, ...caller } = (given ?? rest) as Internal;
    this.#given = caller;
    const transport = createTransport(normalized.apiKey, normalized.options, normalized.keyFrom, inherited);
    this.#transport = transport;
    this.jobs = new JobsResource(transport, normalized.options);
    this.articles = new ArticlesResource(transport, this.jobs, normalized.options.pollIntervalMs);
    this.credits = new CreditsResource(transport, normalized.options.pollIntervalMs);
  }

  /**
   * A new client with `options` over this one's (`apiKey` and `baseUrl` included), for a
   * tenant's key or a job's own timeouts without building a client again. With the same key,
   * origin and `pacing` it shares this client's pacer (one window for one account). Given a
   * `spendLimit`, it has a budget of its own, `spent` from 0; without one, it shares this
   * client's limit and `spent`: one budget. Bad options throw as the constructor's do.
   */
  withOptions(options: ClientOptions): this {
    const Client = this.constructor as new (options: ClientOptions) => this;
    const inherited: Inherited = { parent: this.#transport, ownBudget: options?.spendLimit !== undefined };
    return new Client({ ...this.#given, ...options, [INHERITED]: inherited } as Internal);
  }

  /**
   * One request to a path below `/api/v1` (`/credits`; a path starting with `/api/` is taken as
   * it is), for a field or an endpoint the SDK does not model yet, with this client's key,
   * retries, pacing, spend limit, logging and redaction. Resolves to the JSON body as it came
   * (`unknown`, checked by no schema); a non-2xx rejects with the same typed error as any method. A path the
   * interface lists keeps its endpoint's rules: `POST /credits/checkout` is retried only on 429
   * and when it surely was not sent, and a paid one is held against `spendLimit` (an answer that
   * does not say what it cost counts its worst case in `spent`). Any other POST carries an
   * `Idempotency-Key` (yours, or one made for the call) and is retried as `generate` is. A `.`
   * or `..` segment in any spelling, a path starting with `//` or `\`, or another origin, is an
   * InvalidArgumentError, and nothing is sent.
   */
  request(request: RawRequest): ApiPromise<unknown> {
    const transport = this.#transport;
    return apiPromise(
      async (mode) => (await import('./core/raw-request.js')).sendRaw(transport, request, mode),
      transport.requestIdOf,
    );
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
    return this.#transport.spent();
  }

  toJSON(): Record<string, unknown> {
    // Headers and fetch fields may hold secrets of their own (a tracing token, an agent).
    const {
      fetch: _fetch,
      hooks: _hooks,
      log: _log,
      headers: _headers,
      fetchOptions: _fetchOptions,
      middleware: _middleware,
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
