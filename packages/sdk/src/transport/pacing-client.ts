// The `pacing` option turned into a pacer for one client's transport.

import { endpointRequest } from '../core/endpoint-call.js';
import type { NormalizedOptions } from '../core/option-types.js';
import type { RequestSpec } from '../core/transport-types.js';
import { createPacer, type Pacer } from '../retry/pacing.js';
import { ENDPOINTS } from '../schemas/endpoints.js';

type Send = <T>(spec: RequestSpec<T>) => Promise<T>;

export function createClientPacer(options: NormalizedOptions, send: Send): Pacer | undefined {
  const { pacing } = options;
  if (pacing === false) return undefined;
  if (typeof pacing === 'number') return createPacer({ limit: pacing });
  // 'auto': the account's own limit, read once and again after a 429. The read counts in the
  // window but cannot wait for it (it is what the window's size depends on).
  const readLimit = async () => {
    const balance = await send(endpointRequest(ENDPOINTS.getBalance, {}, undefined, { paceExempt: true }));
    return balance.pricing.requests_per_minute;
  };
  return createPacer({ limit: readLimit });
}
