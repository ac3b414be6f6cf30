// The SDK on any runtime with fetch (Node, Bun, Deno): generate-and-wait, typed errors and an
// abort, against a mock server over HTTP. PROFILE_ARTICLES_BASE_URL names the mock; it has the
// demo account (key demo-key). Plain JavaScript and web APIs only, so every runtime runs it as is.
import {
  AuthenticationError,
  InvalidArgumentError,
  JobFailedError,
  NotFoundError,
  ProfileArticles,
  ProfileArticlesError,
} from '../../packages/sdk/dist/index.js';

const baseUrl =
  globalThis.process?.env?.PROFILE_ARTICLES_BASE_URL ?? globalThis.Deno?.env.get('PROFILE_ARTICLES_BASE_URL');
const runtime = globalThis.Bun
  ? `bun ${Bun.version}`
  : globalThis.Deno
    ? `deno ${Deno.version.deno}`
    : `node ${process.version}`;
const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl, pollIntervalMs: 20 });

function check(condition, message) {
  if (!condition) throw new Error(`${runtime}: ${message}`);
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`${runtime}: expected a rejection`);
}

const article = await client.articles.generateAndWait('ada-lovelace');
check(article.title === 'Ada Lovelace' && article.sources.length > 0, 'generateAndWait');
check((await client.credits.balance()).credits === 900, 'balance after a generation');

const missing = await rejection(client.articles.read('nobody-here'));
check(missing instanceof NotFoundError && missing.status === 404, `read of a missing article: ${missing}`);
const failed = await rejection(client.articles.generateAndWait('fail-smoke'));
check(failed instanceof JobFailedError && failed.job.status === 'failed', `failed job: ${failed}`);
const wrongKey = new ProfileArticles({ apiKey: 'not-a-key', baseUrl });
const denied = await rejection(wrongKey.credits.balance());
check(denied instanceof AuthenticationError && denied instanceof ProfileArticlesError, `401: ${denied}`);
check(!String(denied.message).includes('not-a-key'), 'the key stays out of messages');

const controller = new AbortController();
const started = Date.now();
setTimeout(() => controller.abort(), 100);
const aborted = await rejection(
  client.articles.generateAndWait('stuck-smoke', { signal: controller.signal }),
);
check(aborted?.name === 'AbortError', `abort: ${aborted}`);
check(Date.now() - started < 2000, 'abort is prompt');

// The User-Agent names this runtime; `proxy` is the Node entry's, and here it names the runtime's own way.
const agents = [];
const seeing = new ProfileArticles({
  apiKey: 'demo-key',
  baseUrl,
  fetch: (input, init) => {
    agents.push(new Request(input, init).headers.get('user-agent'));
    return fetch(input, init);
  },
});
await seeing.credits.balance();
const name = globalThis.Bun ? 'bun' : globalThis.Deno ? 'deno' : 'node';
check(
  /^profile-articles-sdk\/\d+\.\d+\.\d+\S* (bun|deno|node)\/\S+$/.test(agents[0] ?? '') &&
    agents[0].includes(` ${name}/`),
  `User-Agent: ${agents[0]}`,
);
const proxied = await rejection(
  Promise.resolve().then(
    () => new ProfileArticles({ apiKey: 'demo-key', baseUrl, proxy: 'http://127.0.0.1:3128' }),
  ),
);
check(
  proxied instanceof InvalidArgumentError && /^proxy works on Node only/.test(proxied.message),
  `proxy: ${proxied}`,
);
if (name !== 'node')
  check(proxied.message.includes(name === 'bun' ? "Bun's fetch" : "Deno's fetch"), proxied.message);

console.log(`sdk smoke on ${runtime}: ok`);
