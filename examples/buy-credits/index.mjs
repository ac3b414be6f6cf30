// node index.mjs <credits> [--open]: buys credits. A checkout gives a payment page; the credits
// arrive once the payment is confirmed, and only the balance says when (the interface has no
// webhook). Reads PROFILE_ARTICLES_API_KEY and PROFILE_ARTICLES_BASE_URL.
import { BadRequestError, PaymentsNotConfiguredError, ProfileArticles } from '@profile-articles/sdk';

const credits = Number(process.argv[2]);
if (!Number.isInteger(credits) || credits <= 0) {
  console.error('usage: node index.mjs <credits> [--open]');
  process.exit(2);
}
const CHECK_EVERY_MS = Number(process.env.CHECK_EVERY_MS ?? 5000);
const GIVE_UP_AFTER_MS = 15 * 60_000;

const client = new ProfileArticles();
const before = (await client.credits.balance()).credits;

let checkout;
try {
  checkout = await client.credits.checkout(credits);
} catch (error) {
  if (error instanceof BadRequestError) {
    const { pricing } = await client.credits.balance();
    console.error(`Buy between ${pricing.min_purchase_credits} and ${pricing.max_purchase_credits} credits.`);
    process.exit(1);
  }
  if (error instanceof PaymentsNotConfiguredError) {
    console.error('This account cannot buy credits: ask your operator.');
    process.exit(1);
  }
  throw error;
}

console.log(`Pay for ${credits} credits at ${checkout.url}`);
if (process.argv.includes('--open')) {
  const { default: open } = await import('open');
  await open(checkout.url);
}

// Waiting for a person: check the balance now and then, and stop at some point.
const deadline = Date.now() + GIVE_UP_AFTER_MS;
for (;;) {
  const now = (await client.credits.balance()).credits;
  if (now >= before + credits) {
    console.log(`${now - before} credits arrived: the balance is ${now}.`);
    break;
  }
  if (Date.now() > deadline) {
    console.error(`No payment after ${GIVE_UP_AFTER_MS / 60_000} minutes; session ${checkout.session_id}.`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
}
