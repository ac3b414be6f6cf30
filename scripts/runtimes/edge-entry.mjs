// A script for the Vercel Edge Runtime (the `edge-runtime` package): a fetch listener that runs the
// SDK smoke for each request. The mock's URL comes in the request's `baseUrl` query parameter
// (the package's runtime has no process.env); the answer is the smoke's report (200) or what
// failed (500). Bundled by edge-smoke.mjs with the Edge Runtime's export conditions.
import * as sdk from '@profile-articles/sdk';
import { sdkSmoke } from './smoke-checks.mjs';

async function answer(request) {
  const query = new URL(request.url).searchParams;
  try {
    const runtime = `edge-runtime ${query.get('version')} (EdgeRuntime: ${EdgeRuntime})`;
    return new Response(await sdkSmoke(sdk, { baseUrl: query.get('baseUrl'), runtime }));
  } catch (error) {
    // The cause too: a ConnectionError's is the runtime's own refusal ("Illegal invocation").
    return new Response(`${error?.stack ?? error}\ncause: ${error?.cause?.stack ?? error?.cause}`, {
      status: 500,
    });
  }
}

addEventListener('fetch', (event) => event.respondWith(answer(event.request)));
