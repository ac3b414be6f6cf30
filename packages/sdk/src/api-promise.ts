// What every single-request call returns: a Promise of the typed value that can also give the
// answer itself. The request starts at once; what is done with the answer's body is decided
// when a 2xx arrives, by what was asked of the promise by then: awaiting it (or
// `withResponse()`) reads and validates the body, `asResponse()` hands the Response over with
// its body unread. openai-node's APIPromise has the same two methods.
import { InvalidArgumentError } from './errors.js';
import type { Answer } from './transport-types.js';

/**
 * A Promise of the call's typed value (`await` it as always) with two more ways to take the
 * answer. Ask for one form per call: the body goes to whichever is asked first.
 */
export interface ApiPromise<T> extends Promise<T> {
  /**
   * The typed value with the Response it came in (its body already read into `data`) and the
   * server's `X-Request-Id` for it, to quote when asking about the call.
   */
  withResponse(): Promise<{ data: T; response: Response; requestId: string | undefined }>;
  /**
   * The raw Response of a 2xx, its body unread and not validated: read it yourself. An error
   * answer still rejects with its typed error, after the usual retries. Ask before awaiting the
   * call (`await client.credits.balance().asResponse()`): once the body has been read, this
   * rejects with InvalidArgumentError.
   */
  asResponse(): Promise<Response>;
}

const dataOf = <T>(answer: Answer<T>) => answer.data;

const taken = (form: string) =>
  new InvalidArgumentError(`This call's answer went to ${form}: ask for one form of it per call`);

/** A Promise subclass whose own settling is never used: `then` hands out the answer's data. */
class Call<T> extends Promise<T> implements ApiPromise<T> {
  // Promise methods that make a new promise (finally) make a plain one.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #answer: Promise<Answer<T>>;
  readonly #mode: { raw: boolean; data?: boolean };
  readonly #requestIdOf: (response: Response) => string | undefined;

  constructor(
    answer: Promise<Answer<T>>,
    mode: { raw: boolean },
    requestIdOf: (response: Response) => string | undefined,
  ) {
    super((resolve) => resolve(undefined as T));
    this.#answer = answer;
    this.#mode = mode;
    this.#requestIdOf = requestIdOf;
  }

  /** The answer picked by `pick`, once the body went to the data (the default). */
  #data<R>(pick: (answer: Answer<T>) => R): Promise<R> {
    if (this.#mode.raw) return Promise.reject(taken('asResponse()'));
    this.#mode.data = true;
    return this.#answer.then((answer) => {
      if (answer.raw) throw taken('asResponse()');
      return pick(answer);
    });
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise's own method, overridden as Promise subclasses do
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#data(dataOf).then(onFulfilled, onRejected);
  }

  withResponse() {
    return this.#data(({ data, response }) => ({ data, response, requestId: this.#requestIdOf(response) }));
  }

  asResponse(): Promise<Response> {
    if (this.#mode.data) return Promise.reject(taken('its data'));
    this.#mode.raw = true;
    return this.#answer.then((answer) => {
      if (!answer.raw) throw taken('its data');
      return answer.response;
    });
  }
}

/** The call of `send`, which gets the mode its answer is to be taken in. */
export function apiPromise<T>(
  send: (mode: { raw: boolean }) => Promise<Answer<T>>,
  requestIdOf: (response: Response) => string | undefined,
): ApiPromise<T> {
  const mode = { raw: false };
  return new Call(send(mode), mode, requestIdOf);
}
