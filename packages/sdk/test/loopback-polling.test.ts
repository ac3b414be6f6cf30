// pollIntervalMs unset: 1 s on a loopback origin (the mock on this machine answers at once, and
// its jobs take 4 s), 10 s, the interface's advice, elsewhere. Every wait takes it: the *AndWait
// calls, jobs.waitFor, checkoutAndWait and generateAndWait's wait through another job's 409s.
// Over real HTTP against the mock with its own job timings (1 s queued, 3 s running). Each wait
// is bounded at 9 s by its own option: polling every 10 s, none would see its job end in time.
import { payCheckoutPage } from '@profile-articles/mock-server';
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { describe, expect, it } from 'vitest';
import { type Job, ProfileArticles } from '../src/node.js';

const mock = useMockServer({
  accounts: [
    { id: 'local', apiKeys: ['key-local-1'], credits: 10_000, pricing: { requests_per_minute: 100_000 } },
  ],
});

/** Under 10 s, the interval off loopback: a wait that polled at that interval would run out. */
const WAIT_MS = 9_000;
/** Timers never fire early; Date.now() is read in whole milliseconds on both sides of one. */
const AT_LEAST_1_S = 990;

const client = (hooks = {}) => new ProfileArticles({ apiKey: 'key-local-1', baseUrl: mock.url, hooks });

/** The gaps between the times given, each one from the one before. */
const gaps = (times: number[]) => times.slice(1).map((time, i) => time - times[i]!);

/** An onPoll that keeps when each state was seen after the first (which the start answered). */
function pollTimes() {
  const times: number[] = [];
  const seen: Job[] = [];
  return {
    times,
    onPoll: (job: Job) => {
      if (seen.push(job) > 1) times.push(Date.now());
    },
  };
}

describe('the default poll interval', () => {
  it('is 1,000 ms on a loopback origin and 10,000 ms elsewhere; a given pollIntervalMs wins', () => {
    const interval = (baseUrl: string, extra = {}) =>
      (
        new ProfileArticles({ apiKey: 'key-local-1', baseUrl, ...extra }).toJSON() as {
          pollIntervalMs: number;
        }
      ).pollIntervalMs;
    for (const local of [
      'http://127.0.0.1:4010',
      'http://127.8.9.10',
      'http://localhost:4010',
      'http://[::1]:4010',
    ])
      expect(interval(local), local).toBe(1_000);
    // A name that starts like a loopback address is a name, which DNS may send anywhere.
    for (const remote of ['https://api.example.com', 'http://127.0.0.1.evil.example', 'http://10.0.0.5:4010'])
      expect(interval(remote), remote).toBe(10_000);
    expect(interval('http://127.0.0.1:4010', { pollIntervalMs: 5 })).toBe(5);
    expect(interval('https://api.example.com', { pollIntervalMs: 0 })).toBe(0);
  });
});

describe('on a loopback origin with pollIntervalMs unset, every wait polls every second', () => {
  it('generateAndWait', async () => {
    const { times, onPoll } = pollTimes();
    const article = await client().articles.generateAndWait('ada-lovelace', {
      onPoll,
      waitTimeoutMs: WAIT_MS,
    });
    expect(article.current_version).toBe(1);
    expect(times.length).toBeGreaterThanOrEqual(1);
    for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(AT_LEAST_1_S);
  });

  it('updateAndWait', async () => {
    const sdk = client();
    await sdk.articles.generate('grace-hopper');
    mock.service.advanceClock(4_001); // the article exists: the update's job then runs 4 s
    const { times, onPoll } = pollTimes();
    const article = await sdk.articles.updateAndWait('grace-hopper', { onPoll, waitTimeoutMs: WAIT_MS });
    expect(article.current_version).toBe(2);
    for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(AT_LEAST_1_S);
  });

  it('jobs.waitFor', async () => {
    const sdk = client();
    const job = await sdk.articles.generate('alan-turing');
    if (!('job_id' in job)) throw new Error('expected a job');
    // waitFor's first state is a poll of its own: every state seen is one.
    const times: number[] = [];
    const onPoll = () => void times.push(Date.now());
    const ended = await sdk.jobs.waitFor(job.job_id, { onPoll, timeoutMs: WAIT_MS });
    expect(ended.status).toBe('succeeded');
    expect(times.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(AT_LEAST_1_S);
  });

  it('generateAndWait waiting out another job’s 409s', async () => {
    const conflicts: number[] = [];
    const sdk = client({
      onResponse: ({ status }: { status: number }) => status === 409 && conflicts.push(Date.now()),
    });
    await client().articles.generate('edsger-dijkstra'); // another job, active for 4 s
    const article = await sdk.articles.generateAndWait('edsger-dijkstra', { waitTimeoutMs: WAIT_MS });
    expect(article.current_version).toBe(1);
    expect(conflicts.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps(conflicts)) expect(gap).toBeGreaterThanOrEqual(AT_LEAST_1_S);
  });

  it('checkoutAndWait', async () => {
    const reads: number[] = [];
    let paid: Promise<unknown> | undefined;
    let url = '';
    const sdk = client({
      onResponse: ({ method }: { method: string }) => method === 'GET' && reads.push(Date.now()),
    });
    const balance = await sdk.credits.checkoutAndWait(100, {
      timeoutMs: WAIT_MS,
      onCheckout: (session) => {
        url = session.url;
      },
      // The person pays once the first read has shown no credits yet.
      onPoll: () => {
        paid ??= payCheckoutPage(url);
      },
    });
    await paid;
    expect(balance.credits).toBe(10_100);
    // The read before the checkout, the one that found nothing yet, then the one that found them.
    expect(reads).toHaveLength(3);
    expect(reads[2]! - reads[1]!).toBeGreaterThanOrEqual(AT_LEAST_1_S);
  });
});
