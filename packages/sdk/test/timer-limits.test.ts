// A timer past 2^31 − 1 ms fires after 1 ms in Node and browsers: a huge timeout would become
// none (a paid job abandoned at once) and a huge poll interval a busy loop that spends the
// account's rate window. Such values are refused before anything is sent.

import { readdirSync, readFileSync } from 'node:fs';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB, reply } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProfileArticles } from '../src/index.js';
import { useScriptedServers } from './scripted-client.js';

const { setup } = useScriptedServers();
const HUGE = 3e9;
const MAX_TIMER_MS = 2 ** 31 - 1;

describe('timer limits', () => {
  it.each(['timeoutMs', 'deadlineMs', 'pollIntervalMs', 'maxRetryDelayMs'])(
    'the client refuses %s past MAX_TIMER_MS',
    (name) => {
      const make = (value: number) =>
        new ProfileArticles({ apiKey: 'test-key', baseUrl: 'http://127.0.0.1:9', [name]: value });
      expect(() => make(HUGE)).toThrow(InvalidArgumentError);
      expect(() => make(MAX_TIMER_MS)).not.toThrow();
    },
  );

  it('per-call and waitFor values past MAX_TIMER_MS are rejected before any request', async () => {
    const { server, client } = await setup([reply(200, JOB)]);
    expect(await rejectionOf(client.credits.balance({ timeoutMs: HUGE }))).toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(await rejectionOf(client.jobs.waitFor(JOB.job_id, { timeoutMs: HUGE }))).toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(await rejectionOf(client.jobs.waitFor(JOB.job_id, { intervalMs: HUGE }))).toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(await rejectionOf(client.articles.generateAndWait('ada', { waitTimeoutMs: HUGE }))).toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(server.received).toHaveLength(0);
  });
});

describe('every timer of the SDK', () => {
  it('starts through startTimer (retry/abort.ts), which holds it to MAX_TIMER_MS', () => {
    const src = new URL('../src/', import.meta.url);
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'retry/abort.ts',
    );
    expect(files.length).toBeGreaterThan(10);
    const timers = files.filter((file) =>
      /\bset(?:Timeout|Interval)\s*\(|timers\/promises/.test(readFileSync(new URL(file, src), 'utf8')),
    );
    expect(timers).toEqual([]);
  });
});
