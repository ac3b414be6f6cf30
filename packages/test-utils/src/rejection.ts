// The error a promise rejects with, typed: `rejectionOf(call, NotFoundError)` fails the test
// when the call resolves or rejects with anything else, and hands back a NotFoundError.

// Any constructor, whatever its parameters.
type ErrorClass = abstract new (...args: any[]) => Error;

export function rejectionOf<C extends ErrorClass>(
  promise: Promise<unknown>,
  type: C,
): Promise<InstanceType<C>>;
export function rejectionOf(promise: Promise<unknown>): Promise<Error>;
export async function rejectionOf(promise: Promise<unknown>, type: ErrorClass = Error): Promise<Error> {
  let rejected = false;
  let reason: unknown;
  try {
    await promise;
  } catch (error) {
    rejected = true;
    reason = error;
  }
  if (!rejected) throw new Error('expected a rejection, but the promise resolved');
  if (!(reason instanceof type)) {
    const got = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
    throw new Error(`expected a rejection with ${type.name}, got ${got}`);
  }
  return reason;
}
