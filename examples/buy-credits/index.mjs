// node index.mjs <credits> [--open]: buys credits. A checkout gives a payment page; the credits
// arrive once the payment is confirmed, and only the balance says when (the interface has no
// webhook). Reads PROFILE_ARTICLES_API_KEY and PROFILE_ARTICLES_BASE_URL.
import {
  BadRequestError,
  PaymentsNotConfiguredError,
  ProfileArticles,
  TimeoutError,
} from '@profile-articles/sdk';

const credits = Number(process.argv[2]);
if (!Number.isInteger(credits) || credits <= 0) {
  console.error('usage: node index.mjs <credits> [--open]');
  process.exit(2);
}
const CHECK_EVERY_MS = Number(process.env.CHECK_EVERY_MS ?? 5000);
const GIVE_UP_AFTER_MS = 15 * 60_000;

const client = new ProfileArticles();

// The page's address comes from the server. Printed with its control and invisible characters
// written as \u escapes (a terminal acts on them). Opened only when it is a web page over https,
// or plain http on this machine from a server on this machine (the mock): an opener given file:,
// javascript: or data: runs or shows something on this machine instead, and a server elsewhere
// naming http://127.0.0.1:631/admin/… points the browser at a local service's admin page.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const printable = (text) =>
  text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const isHere = (hostname) =>
  ['localhost', '[::1]'].includes(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
// The server the client talks to (its baseUrl, already checked by the SDK) is on this machine.
const serverIsHere = isHere(new URL(client.baseUrl).hostname);

function openable(address) {
  if (printable(address) !== address || address.includes(' ')) return undefined;
  let url;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  const local = url.protocol === 'http:' && isHere(url.hostname) && serverIsHere;
  return url.protocol === 'https:' || local ? url.href : undefined;
}

// Shows the page (and opens it with --open), once the checkout exists.
async function show(checkout) {
  console.log(`Pay for ${credits} credits at ${printable(checkout.url)}`);
  if (!process.argv.includes('--open')) return;
  const page = openable(checkout.url);
  if (page === undefined) {
    console.error(
      `Refused to open "${printable(checkout.url)}": only https pages, or http on this computer from a server on it.`,
    );
    process.exit(1);
  }
  const { default: open } = await import('open');
  // The opener (xdg-open, open, start) exits at once; a failure means no browser was found. The
  // address is printed above, so the person can still pay: say so, and go on waiting.
  const noBrowser = () => console.error('Could not open a browser: open the address above yourself.');
  const opener = await open(page);
  opener.once('error', noBrowser);
  opener.once('exit', (code) => code !== 0 && noBrowser());
}

// The checkout, then a wait for a person: the SDK reads the balance now and then until the
// credits arrive (it tells them from other spending meanwhile), and stops at some point.
try {
  const balance = await client.credits.checkoutAndWait(credits, {
    onCheckout: show,
    intervalMs: CHECK_EVERY_MS,
    timeoutMs: GIVE_UP_AFTER_MS,
  });
  console.log(`${credits} credits arrived: the balance is ${balance.credits}.`);
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
  if (error instanceof TimeoutError) {
    console.error(
      `No payment after ${GIVE_UP_AFTER_MS / 60_000} minutes: a payment made later still adds its credits.`,
    );
    process.exit(1);
  }
  throw error;
}
