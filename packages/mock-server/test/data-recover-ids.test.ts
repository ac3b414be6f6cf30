// --data-recover and the ids the damaged records had taken: a flipped byte inside `"t":"job"`
// hides from a count of the damaged text that the line took an id. An intact later record that
// names an id (a paid checkout's session) fixes the count exactly; without one, new ids skip
// past every id the damaged bytes could have taken, so none the customer holds is handed out again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiCaller, dataFolder, startWithData } from './data-harness.js';

const KEY = 'recover-ids-key-0001';
const call = apiCaller(KEY);
const start = (where: { dir: string; config: string }, ...extra: string[]) => startWithData(where, extra);

/** Two generates and a checkout (paid when `pay`), then kill -9: the journal holds them all. */
async function session(pay: boolean) {
  const where = dataFolder('mock-recover-ids-', KEY, 10_000, 600_000);
  const mock = start(where);
  const url = await mock.url;
  const held: string[] = [];
  for (const profile of ['p1', 'p2'])
    held.push(
      (await call(url, 'POST', '/api/v1/articles', { profile_id: profile }, `k-${profile}`)).body.job_id,
    );
  const checkout = await call(url, 'POST', '/api/v1/credits/checkout', { credits: 50 });
  held.push(checkout.body.session_id);
  if (pay)
    expect((await call(url, 'POST', `/_mock/checkout/${checkout.body.session_id}/complete`)).status).toBe(
      200,
    );
  mock.child.kill('SIGKILL');
  await mock.exited;
  // One byte flipped inside the second generate's `"t":"job"`.
  const journal = join(where.dir, 'journal.log');
  const text = readFileSync(journal);
  const second = text.indexOf('\n', text.indexOf('\n') + 1) + 1;
  const at = text.indexOf('"t":"job"', second) + 6;
  text[at] = (text[at] as number) ^ 0x01;
  writeFileSync(journal, text);
  return { where, held, sessionId: checkout.body.session_id as string };
}

describe('--data-recover, ids of damaged records', () => {
  it("keeps a paid checkout's session id exactly when the damage hid a job", async () => {
    const { where, held, sessionId } = await session(true);
    const mock = start(where, '--data-recover');
    const url = await mock.url;
    const sessions = (await call(url, 'GET', '/_mock/checkouts')).body.checkouts.map((s: any) => s.sessionId);
    expect(sessions).toContain(sessionId);
    const next = (await call(url, 'POST', '/api/v1/articles', { profile_id: 'p3' }, 'k-p3')).body.job_id;
    expect(held).not.toContain(next);
  });

  it('hands out no id the customer holds when no later record names one, and says ids were skipped', async () => {
    const { where, held } = await session(false);
    const mock = start(where, '--data-recover');
    const url = await mock.url;
    const next = (await call(url, 'POST', '/api/v1/articles', { profile_id: 'p3' }, 'k-p3')).body.job_id;
    const checkout = (await call(url, 'POST', '/api/v1/credits/checkout', { credits: 10 })).body.session_id;
    expect(held).not.toContain(next);
    expect(held).not.toContain(checkout);
    expect(mock.stderr()).toContain('skipped');
  });
});
