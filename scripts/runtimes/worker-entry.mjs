// A module Worker that runs the SDK smoke inside fetch() (workerd refuses I/O at global scope).
// The mock's URL comes as the binding PROFILE_ARTICLES_BASE_URL; the answer is the smoke's report
// (200) or what failed (500). Bundled by edge-smoke.mjs with workerd's export conditions.
import * as sdk from '@profile-articles/sdk';
import { sdkSmoke } from './smoke-checks.mjs';

export default {
  async fetch(request, env) {
    const runtime = new URL(request.url).searchParams.get('runtime') ?? 'workerd';
    try {
      return new Response(await sdkSmoke(sdk, { baseUrl: env.PROFILE_ARTICLES_BASE_URL, runtime }));
    } catch (error) {
      // The cause too: a ConnectionError's is the runtime's own refusal ("Illegal invocation").
      return new Response(`${error?.stack ?? error}\ncause: ${error?.cause?.stack ?? error?.cause}`, {
        status: 500,
      });
    }
  },
};
