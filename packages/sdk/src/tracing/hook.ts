// What the client carries of OpenTelemetry tracing: a wrapper around every call and every wait
// that does nothing until `@opentelemetry/api` is found. The spans themselves are spans.ts, a
// chunk of its own, imported only then: a client without the API pays one check per call and
// never loads it (docs/sdk.md, "Tracing").

import { version } from '../../package.json';
import type { Transport } from '../core/transport-types.js';
import { API_PREFIX } from '../schemas/endpoints.js';
import { PARENT, type TraceArgs, type Tracer } from './tracer.js';

type Request = Transport['request'];
type Wait = Transport['wait'];

async function load(request: Request, args: TraceArgs): Promise<Tracer | undefined> {
  try {
    const api = await import('@opentelemetry/api');
    return (await import('./spans.js')).createTracer(api, PARENT, version, API_PREFIX, request, ...args);
  } catch {
    // No @opentelemetry/api here (it is an optional peer): no spans.
  }
}

/**
 * `request` and a wait around `run`, each in a span once the API is found. Calls made before the
 * import settles wait for it, so a new client's first call is traced too.
 */
export function traced(request: Request, ...args: TraceArgs): Pick<Transport, 'request' | 'wait'> {
  let tracer: Tracer | undefined;
  let loading: Promise<void> | undefined =
    args[0].tracing === false
      ? undefined
      : load(request, args).then((loaded) => {
          tracer = loaded;
          loading = undefined;
        });
  const call: Request = (spec, opts) =>
    loading
      ? loading.then(() => call(spec, opts))
      : tracer
        ? tracer.request(spec, opts)
        : request(spec, opts);
  const wait: Wait = (name, opts, run, profileId) =>
    loading
      ? loading.then(() => wait(name, opts, run, profileId))
      : tracer
        ? tracer.wait(name, opts, run, profileId)
        : run(opts);
  return { request: call, wait };
}
