// Reading what a call cost off the account's balance: two reads on each side of it, so that
// a balance other traffic moved meanwhile can be told apart from a wrong charge.
import { call, type RunContext } from './context.js';

/** The account's balance now; undefined when it cannot be read. */
export async function balance(ctx: RunContext): Promise<number | undefined> {
  const answer = await call(ctx, 'getBalance');
  const credits = (answer.body as { credits?: unknown } | null)?.credits;
  return answer.status === 200 && Number.isInteger(credits) ? (credits as number) : undefined;
}

export interface Measured<T> {
  result: T;
  /** The balance once the call was over (the last read); undefined when it could not be read. */
  after: number | undefined;
  /** How far the balance fell across the call; undefined when it could not be read. */
  drop: number | undefined;
  /** False when the balance also moved while nothing of ours ran: other traffic on the account. */
  quiet: boolean;
}

/**
 * Runs `fn` between two pairs of balance reads. When `fn` throws (the origin stopped
 * answering), the balance is read once more and `onThrow` hears how far it fell, if known,
 * before the error goes on: a run that ends early still counts what it spent.
 */
export async function measureBalance<T>(
  ctx: RunContext,
  fn: () => Promise<T>,
  onThrow: (drop: number | undefined) => void,
): Promise<Measured<T>> {
  const first = await balance(ctx);
  const before = await balance(ctx);
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    const after = await balance(ctx).catch(() => undefined);
    onThrow(before !== undefined && after !== undefined ? before - after : undefined);
    throw error;
  }
  const after = await balance(ctx);
  const settled = await balance(ctx);
  const known = before !== undefined && after !== undefined;
  return {
    result,
    after: settled,
    drop: known ? before - after : undefined,
    quiet: known && first === before && after === settled,
  };
}

/** `the balance fell by 3`, `the balance rose by 2`. */
export const fellText = (drop: number) =>
  drop >= 0 ? `the balance fell by ${drop}` : `the balance rose by ${-drop}`;
