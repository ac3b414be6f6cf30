// The SDK smoke itself: generate-and-wait, typed errors, an abort, the User-Agent and the Node-only
// `proxy`, against a mock server over HTTP that has the demo account (key demo-key). Plain
// JavaScript and web APIs only, and a function rather than top-level code: workerd allows I/O only
// while it handles a request, so its Worker calls this inside fetch(). The caller passes the SDK's
// module, imported (or bundled) the way that runtime resolves the package.

/**
 * Runs the smoke; resolves to its one-line report, rejects with what failed.
 * `agent` is the runtime the User-Agent names (`node`, `bun`, `deno`), or undefined where the SDK
 * finds none of them (workerd, the Edge Runtime) and the User-Agent names the SDK alone.
 */
export async function sdkSmoke(sdk, { baseUrl, runtime, agent }) {
  const { AuthenticationError, InvalidArgumentError, JobFailedError, NotFoundError, ProfileArticles } = sdk;
  const check = (condition, message) => {
    if (!condition) throw new Error(`${runtime}: ${message}`);
  };
  const rejection = async (promise) => {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error(`${runtime}: expected a rejection`);
  };
  // The runtime's own fetch, unbound, as the SDK's default: workerd refuses one called as a method.
  const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl, pollIntervalMs: 20 });

  const article = await client.articles.generateAndWait('ada-lovelace');
  check(article.title === 'Ada Lovelace' && article.sources.length > 0, 'generateAndWait');
  check((await client.credits.balance()).credits === 900, 'balance after a generation');

  const missing = await rejection(client.articles.read('nobody-here'));
  check(missing instanceof NotFoundError && missing.status === 404, `read of a missing article: ${missing}`);
  const failed = await rejection(client.articles.generateAndWait('fail-smoke'));
  check(failed instanceof JobFailedError && failed.job.status === 'failed', `failed job: ${failed}`);
  const wrongKey = new ProfileArticles({ apiKey: 'not-a-key', baseUrl });
  const denied = await rejection(wrongKey.credits.balance());
  check(
    denied instanceof AuthenticationError && denied instanceof sdk.ProfileArticlesError,
    `401: ${denied}`,
  );
  check(!String(denied.message).includes('not-a-key'), 'the key stays out of messages');

  const controller = new AbortController();
  const started = Date.now();
  setTimeout(() => controller.abort(), 100);
  const aborted = await rejection(
    client.articles.generateAndWait('stuck-smoke', { signal: controller.signal }),
  );
  check(aborted?.name === 'AbortError', `abort: ${aborted}`);
  check(Date.now() - started < 2000, 'abort is prompt');

  // The User-Agent names the runtime where the SDK finds one; `proxy` is the Node entry's, and
  // here it names the runtime's own way.
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
  const sent = agents[0] ?? '';
  check(
    agent
      ? /^profile-articles-sdk\/\d+\.\d+\.\d+\S* (bun|deno|node)\/\S+$/.test(sent) &&
          sent.includes(` ${agent}/`)
      : /^profile-articles-sdk\/\d+\.\d+\.\d+\S*$/.test(sent),
    `User-Agent: ${sent}`,
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
  const way = {
    bun: "Bun's fetch",
    deno: "Deno's fetch",
    undefined: 'pass a fetch that goes through your proxy',
  };
  if (agent !== 'node') check(proxied.message.includes(way[agent]), proxied.message);

  return `sdk smoke on ${runtime}: ok (User-Agent: ${sent})`;
}
