// What every single-request call returns: a Promise of the typed value that can also give the
// answer itself. The request starts at once; what is done with the answer's body is decided
// when a 2xx arrives: the body is read and validated for the data, unless `asResponse()` was
// asked by then, which hands the Response over with its body unread. openai-node's APIPromise
// has the same two methods; a plain Promise with them costs less than a subclass of Promise.
import { InvalidArgumentError } from '../errors/errors.js';
import type { Answer } from './transport-types.js';

/**
 * A Promise of the call's typed value (`await` it as always) with two more ways to take the
 * answer. Ask for one form per call: after `asResponse()` the data rejects with
 * InvalidArgumentError, as does `asResponse()` once the body has been read.
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

/** Both forms asked of one call: the body can go to one only. */
const taken = () => new InvalidArgumentError('A call gives its answer once: as its data, or asResponse()');

const noop = () => {};

/**
 * The call of `send`, which gets the mode its answer is to be taken in. A plain Promise with the
 * two methods: the data is taken unless `asResponse()` was asked before the 2xx arrived.
 */
export function apiPromise<T>(
  send: (mode: { raw: boolean }) => Promise<Answer<T>>,
  requestIdOf: (response: Response) => string | undefined,
): ApiPromise<T> {
  const mode = { raw: false };
  const answer = send(mode);
  const parsed = answer.then((got) => {
    if (got.raw) throw taken();
    return got;
  });
  const data = parsed.then((got) => got.data);
  return Object.assign(data, {
    withResponse() {
      // The caller hears a failure from this promise: the data's own copy of it is not unheard.
      data.catch(noop);
      return parsed.then(({ data, response }) => ({ data, response, requestId: requestIdOf(response) }));
    },
    asResponse() {
      mode.raw = true;
      // The data now rejects (its body goes here), as does a failed call: heard here.
      data.catch(noop);
      return answer.then((got) => {
        if (!got.raw) throw taken();
        return got.response;
      });
    },
  });
}
