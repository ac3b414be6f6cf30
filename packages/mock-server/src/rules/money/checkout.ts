// Checkout sessions: created unpaid, paid once. Paying twice adds nothing more.
import type { Ledger } from './ledger.js';

export interface CheckoutSession {
  id: string;
  accountId: string;
  credits: number;
  amountCents: number;
  paid: boolean;
}

export type PayResult = 'paid' | 'already-paid' | 'not-found';

export interface Checkouts {
  create(accountId: string, credits: number, creditPriceCents: number): CheckoutSession;
  get(sessionId: string): CheckoutSession | undefined;
  pay(sessionId: string, at: number): PayResult;
  readonly size: number;
  /** Every session, oldest first. */
  all(): IterableIterator<CheckoutSession>;
  load(session: CheckoutSession): void;
}

export function createCheckouts(ledger: Ledger, newId: () => string): Checkouts {
  const sessions = new Map<string, CheckoutSession>();
  return {
    create(accountId, credits, creditPriceCents) {
      const session = {
        id: `cs_test_${newId().replaceAll('-', '')}`,
        accountId,
        credits,
        amountCents: credits * creditPriceCents,
        paid: false,
      };
      sessions.set(session.id, session);
      return session;
    },
    get: (sessionId) => sessions.get(sessionId),
    all: () => sessions.values(),
    load: (session) => void sessions.set(session.id, { ...session }),
    get size() {
      return sessions.size;
    },
    pay(sessionId, at) {
      const session = sessions.get(sessionId);
      if (!session) return 'not-found';
      if (session.paid) return 'already-paid';
      session.paid = true;
      ledger.add(
        session.accountId,
        session.credits,
        'purchase',
        { reason: 'checkout-paid', sessionId: session.id },
        at,
      );
      return 'paid';
    },
  };
}
