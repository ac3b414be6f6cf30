// The mock's answers stay byte-identical while its insides change (articles kept as seeds,
// the node adapter reading bodies itself): a seeded session recorded before those changes is
// replayed in process and over HTTP, and every status, content type and body must match.
// Re-record only for a deliberate change of the answers: RECORD_SESSION=1 pnpm vitest run <this file>.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createMockService, type MockService, startMockServer } from '@profile-articles/mock-server';
import { seededId, seededIds } from '@profile-articles/test-utils/seeded-ids';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/rules/seeded-random.js';

const FIXTURE = new URL('./fixtures/recorded-session.json', import.meta.url);
const ACCOUNTS = [
  { id: 'a', apiKeys: ['key-aaaa'], credits: 2000 },
  { id: 'b', apiKeys: ['key-bbbb'], credits: 250 },
];
const PROFILES = ['ada-lovelace', 'grace-hopper', 'fail-x', 'stuck-y', 'notfound-z', 'linus', 'émile-zola'];

interface Step {
  method: string;
  path: string;
  key: string;
  body?: unknown;
  idempotencyKey?: string;
  /** Milliseconds the clock moves before this request. */
  advance: number;
}
interface Answer {
  status: number;
  type: string | null;
  sha256: string;
  /** The full body of the first answers, so a difference can be read. */
  body?: string;
}

/** A seeded mix of every paid and free call, with replays, conflicts and clock moves. */
function session(): Step[] {
  const random = seededRandom(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const steps: Step[] = [];
  for (let i = 0; i < 240; i++) {
    const key = pick(ACCOUNTS).apiKeys[0]!;
    const profile = pick(PROFILES);
    const idempotencyKey = `key-${Math.floor(random() * 25)}`;
    const advance = random() < 0.3 ? Math.floor(random() * 5000) : 0;
    const kind = pick([
      'generate',
      'generate',
      'update',
      'read',
      'read',
      'job',
      'balance',
      'checkout',
    ] as const);
    if (kind === 'generate')
      steps.push({
        method: 'POST',
        path: '/api/v1/articles',
        key,
        body: { profile_id: profile },
        idempotencyKey,
        advance,
      });
    else if (kind === 'update')
      steps.push({
        method: 'POST',
        path: `/api/v1/articles/${encodeURIComponent(profile)}/update`,
        key,
        idempotencyKey,
        advance,
      });
    else if (kind === 'read')
      steps.push({ method: 'GET', path: `/api/v1/articles/${encodeURIComponent(profile)}`, key, advance });
    else if (kind === 'job')
      steps.push({
        method: 'GET',
        path: `/api/v1/jobs/${seededId(1 + Math.floor(random() * 30))}`,
        key,
        advance,
      });
    else if (kind === 'balance') steps.push({ method: 'GET', path: '/api/v1/credits', key, advance });
    else
      steps.push({
        method: 'POST',
        path: '/api/v1/credits/checkout',
        key,
        body: { credits: 10 + Math.floor(random() * 50) },
        advance,
      });
  }
  return steps;
}

function newService(): MockService {
  let time = Date.UTC(2026, 0, 1);
  const service = createMockService(
    { accounts: ACCOUNTS, jobs: { queuedMs: 1000, runningMs: 2000 }, payments: 'enabled' },
    { now: () => time, newId: seededIds() },
  );
  // Moves the injected time source, so the service's clock follows without a control call.
  return Object.assign(service, { tick: (ms: number) => (time += ms) });
}

async function replay(
  send: (step: Step) => Promise<Response>,
  tick: (ms: number) => void,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const step of session()) {
    tick(step.advance);
    const response = await send(step);
    const text = await response.text();
    answers.push({
      status: response.status,
      type: response.headers.get('content-type'),
      sha256: createHash('sha256').update(text).digest('hex'),
      ...(answers.length < 40 ? { body: text } : {}),
    });
  }
  return answers;
}

function requestOf(origin: string, step: Step): Request {
  const headers: Record<string, string> = { authorization: `Bearer ${step.key}` };
  if (step.idempotencyKey) headers['idempotency-key'] = step.idempotencyKey;
  if (step.body !== undefined) headers['content-type'] = 'application/json';
  return new Request(origin + step.path, {
    method: step.method,
    headers,
    ...(step.body !== undefined ? { body: JSON.stringify(step.body) } : {}),
  });
}

describe('a recorded session', () => {
  it('answers byte for byte as recorded, in process', async () => {
    const service = newService() as MockService & { tick(ms: number): void };
    const answers = await replay(
      (step) => service.handle(requestOf('http://127.0.0.1:4010', step)),
      service.tick,
    );
    if (process.env.RECORD_SESSION === '1') writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 1)}\n`);
    const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Answer[];
    expect(answers.length).toBe(recorded.length);
    for (const [i, answer] of answers.entries())
      expect(answer, `step ${i}: ${JSON.stringify(session()[i])}`).toEqual(recorded[i]);
    // The session reaches every kind of answer it is meant to guard.
    expect(new Set(recorded.map((a) => a.status))).toEqual(new Set([200, 202, 402, 404, 409]));
  });

  it('answers the same over HTTP', async () => {
    const service = newService() as MockService & { tick(ms: number): void };
    const server = await startMockServer({ port: 0, service });
    try {
      const answers = await replay((step) => fetch(requestOf(server.url, step)), service.tick);
      const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Answer[];
      // Checkout URLs name the origin, which differs over HTTP; every other answer is the same.
      for (const [i, answer] of answers.entries()) {
        if (session()[i]!.path.endsWith('/checkout') && answer.status === 200) continue;
        expect({ ...answer, body: undefined }, `step ${i}`).toEqual({ ...recorded[i], body: undefined });
      }
    } finally {
      await server.close();
    }
  });
});
