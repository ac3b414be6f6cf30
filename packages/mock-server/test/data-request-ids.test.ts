// With --data a request id is unique across restarts: an id a customer quoted before a restart
// never names another request after it. Without --data a service still counts req_1, req_2…
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';

describe('--data request ids', () => {
  it('never repeat across restarts of the same folder, and stay short', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mock-ids-')), 'data');
    const seen: string[] = [];
    for (const stop of ['SIGTERM', 'SIGKILL', 'SIGTERM'] as const) {
      const mock = startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--data', dir]);
      const url = await mock.url;
      for (const path of ['/', '/api/v1/credits']) {
        const response = await fetch(`${url}${path}`, { headers: { authorization: 'Bearer demo-key' } });
        await response.arrayBuffer();
        seen.push(response.headers.get('x-request-id') as string);
      }
      mock.child.kill(stop);
      await mock.exited;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of seen) expect(id).toMatch(/^req_[0-9a-z]{1,10}_\d+$/);
  });
});
