// Compile-time facts about withOptions(), request() and middleware, checked by tsc (types.test.ts)
// against the built declarations; nothing here runs. Every `@ts-expect-error` line must fail to
// compile, and every `Equal` must hold.
import type {
  ApiPromise,
  Middleware,
  ProfileArticles,
  RawRequest,
  RequestMethod,
} from '@profile-articles/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(_proof?: T) => {};

declare const client: ProfileArticles;

export function aDerivedClientIsOfTheSameClass() {
  holds<Equal<ReturnType<typeof client.withOptions>, ProfileArticles>>();
  // @ts-expect-error: options, as the constructor's
  client.withOptions({ timeoutMs: 'soon' });
}

export async function requestIsAnApiPromiseOfUnknown() {
  holds<Equal<ReturnType<typeof client.request>, ApiPromise<unknown>>>();
  holds<Equal<RequestMethod, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'>>();
  const request: RawRequest = {
    method: 'POST',
    path: '/articles',
    body: { profile_id: 'x' },
    idempotencyKey: 'k',
  };
  const { data, requestId } = await client.request(request).withResponse();
  holds<Equal<typeof data, unknown>>();
  holds<Equal<typeof requestId, string | undefined>>();
  // @ts-expect-error: a method request() does not send
  client.request({ method: 'TRACE', path: '/credits' });
  // @ts-expect-error: no path
  client.request({ method: 'GET' });
}

export function middlewareTakesTheRequestAndNext() {
  const timing: Middleware = async (request, next) => {
    holds<Equal<typeof request.url, string>>();
    holds<Equal<typeof request.init, RequestInit>>();
    const response = await next(request);
    holds<Equal<typeof response, Response>>();
    return response;
  };
  void timing;
}
