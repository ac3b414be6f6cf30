// What a batch may still spend. A reservation counts from before its request is sent until
// its job ends and the real charge (0 after a refund) replaces it, so --max-credits holds even
// while every job is still running. When the next one does not fit, it waits for a running one
// to end (a refund may free room), and gives up only when nothing is left running.
export type StopReason = 'budget' | 'balance';

export class Budget {
  readonly #maxCredits: number;
  readonly #balance: number;
  /** Toward --max-credits: everything the state file says was spent or reserved, plus this run. */
  #committed: number;
  /** Out of the balance read at the start, by this run. */
  #used = 0;
  #running = 0;
  #wake: Array<() => void> = [];

  constructor(options: { maxCredits: number | undefined; balance: number; committed: number }) {
    this.#maxCredits = options.maxCredits ?? Number.POSITIVE_INFINITY;
    this.#balance = options.balance;
    this.#committed = options.committed;
  }

  get committed(): number {
    return this.#committed;
  }

  /** Takes `cost` for a new request; undefined when taken, else why not (nothing left running). */
  async reserve(cost: number): Promise<StopReason | undefined> {
    for (;;) {
      const overBudget = this.#committed + cost > this.#maxCredits;
      const overBalance = this.#used + cost > this.#balance;
      if (!overBudget && !overBalance) {
        this.#committed += cost;
        this.#used += cost;
        this.#running++;
        return undefined;
      }
      if (this.#running === 0) return overBudget ? 'budget' : 'balance';
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }

  /** A started one from an earlier run: its reservation is already counted and already off the balance. */
  adopt(): void {
    this.#running++;
  }

  /** The request ended: `charged` replaces the `reserved` amount (0 when nothing was sent or all was refunded). */
  settle(reserved: number, charged: number): void {
    this.#committed += charged - reserved;
    this.#used += charged - reserved;
    this.#running--;
    const waiting = this.#wake;
    this.#wake = [];
    for (const wake of waiting) wake();
  }
}
