// What the contract table lets endpoint `N` answer, as an Outcome: each success status with
// its schema's body, and `{detail}` with the error statuses the table lists. routes/api.ts
// types every operation with it, so an answer the table does not allow does not compile.
import type { ENDPOINTS, EndpointName, SuccessStatus } from '@profile-articles/sdk/internal';
import type * as z from 'zod/mini';
import type { Failure, Success } from '../operations/outcome.js';

/**
 * A schema's output without the index signatures zod gives loose objects (unknown fields are
 * accepted when parsing), so the SDK's exact types, such as `ReadResponse`, fit it.
 */
type Known<T> = T extends readonly (infer E)[]
  ? Known<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

type Responses<N extends EndpointName> = (typeof ENDPOINTS)[N]['responses'];

type SuccessOf<N extends EndpointName> = {
  [S in keyof Responses<N>]: S extends SuccessStatus
    ? Responses<N>[S] extends z.ZodMiniType
      ? Success<Known<z.output<Responses<N>[S]>>, S>
      : never
    : never;
}[keyof Responses<N>];

export type EndpointOutcome<N extends EndpointName> =
  | SuccessOf<N>
  | Failure<(typeof ENDPOINTS)[N]['errors'][number]>;
