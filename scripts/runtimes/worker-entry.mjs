// A module Worker that runs the SDK smoke inside fetch() (workerd refuses I/O at global scope).
// The mock's URL comes as the binding PROFILE_ARTICLES_BASE_URL, and the query names the runtime
// and the one the User-Agent should name; the answer is the smoke's report (200) or what failed
// (500). Bundled by edge-smoke.mjs with workerd's export conditions.
import * as sdk from '@profile-articles/sdk';
import { sdkSmoke } from './smoke-checks.mjs';

export default {
  async fetch(request, env) {
    const query = new URL(request.url).searchParams;
    const [runtime, agent] = [query.get('runtime') ?? 'workerd', query.get('agent') || undefined];
    try {
      return new Response(await sdkSmoke(sdk, { baseUrl: env.PROFILE_ARTICLES_BASE_URL, runtime, agent }));
    } catch (error) {
      // The cause too: a ConnectionError's is the runtime's own refusal ("Illegal invocation").
      return new Response(`${error?.stack ?? error}\ncause: ${error?.cause?.stack ?? error?.cause}`, {
        status: 500,
      });
    }
  },
};
