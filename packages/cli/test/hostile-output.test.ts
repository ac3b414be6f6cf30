// Every command's output, for every answer a hostile server might send: the real mock, while a
// command runs, replaces every free-text string of every answer (titles, content, sources,
// infobox, profile ids, job errors, error details, checkout URLs, fields the interface does not
// name) with generated text full of control characters, escape sequences and odd Unicode.
// Whatever they are, text output (in a pipe or on a terminal) holds no control character but
// newline and tab, and --json output is the very value the server sent, with DEL, C1 and
// bidirectional controls written as \u escapes.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PREFIX } from '@profile-articles/sdk/internal';
import {
  hostileAnswer,
  hostileStrings,
  hostileText,
  RAW_IN_JSON,
  TERMINAL_CONTROLS,
} from '@profile-articles/test-utils/hostile-strings';
import type { Drift } from '@profile-articles/test-utils/lying-mock';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CliResult, KEYS, onlyJson, useCliMock } from './helpers.js';

/** One answer of the API, as the compromised mock sent it. */
interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** What the mock does to its answers while a command runs; nothing while a test prepares. */
let compromise: Drift | undefined;
const sent: Answer[] = [];
const h = useCliMock(
  {
    accounts: [
      // Many runs a minute: no rate limit in the way.
      { id: 'main', apiKeys: [KEYS.main], credits: 10_000_000, pricing: { requests_per_minute: 100_000 } },
      { id: 'poor', apiKeys: [KEYS.poor], credits: 50, pricing: { requests_per_minute: 100_000 } },
    ],
    // Jobs end by the first poll: a run is a few requests.
    jobs: { queuedMs: 0, runningMs: 0 },
  },
  async (request, response, service) => {
    if (!compromise) return response;
    const answer = await compromise(request, response, service);
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(`${API_PREFIX}/`)) {
      const body = await answer.clone().json();
      sent.push({ method: request.method, path: pathname, status: answer.status, body });
    }
    return answer;
  },
);

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** Bidirectional controls: the CLI removes them from text too, so that no text shows reordered. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The styles the CLI itself adds on a terminal (SGR only). */
const OWN_STYLE = /\u001b\[\d+m/g;

/** Some hostile strings; every free-text field of every answer takes the next one, in turn. */
const pools = fc.array(hostileText(), { minLength: 1, maxLength: 5 });

/**
 * Every answer carries the pool's strings. With `status`, the first answer is an error of that
 * status instead, its `{detail}` a string or (422) a list of issues, every field hostile.
 */
function compromised(pool: string[], status?: number): Drift {
  let next = 0;
  const replace = () => pool[next++ % pool.length]!;
  const strings = hostileStrings(replace);
  let first = true;
  return (request, response, service) => {
    if (status === undefined || !first) return strings(request, response, service);
    first = false;
    const detail = status === 422 ? [{ loc: ['body', 'x'], msg: 'x', type: 'x' }] : 'x';
    const headers = { 'content-type': 'application/json' };
    return new Response(JSON.stringify(hostileAnswer({ detail }, replace)), { status, headers });
  };
}

type Variant = 'pipe' | 'terminal' | 'json';
const VARIANTS: Variant[] = ['pipe', 'terminal', 'json'];

interface Run extends CliResult {
  /** What the mock answered during the run, oldest first. */
  sent: Answer[];
}

type Env = Record<string, string | undefined>;

async function cli(
  args: string[],
  variant: Variant,
  drift: Drift,
  env: Env = {},
  input?: string,
): Promise<Run> {
  const from = sent.length;
  compromise = drift;
  try {
    const result = await h.run(variant === 'json' ? [...args, '--json'] : args, {
      env: { PAGER: 'cat', ...env },
      terminal: variant === 'terminal',
      ...(input === undefined ? {} : { input }),
    });
    return { ...result, sent: sent.slice(from) };
  } finally {
    compromise = undefined;
  }
}

/** Text for a person: nothing but printable text, newlines and tabs (and, on a terminal, our colours). */
function expectSafeText(result: CliResult, variant: Variant): void {
  const text = result.stdout + result.stderr;
  const shown = variant === 'terminal' ? text.replace(OWN_STYLE, '') : text;
  expect(shown).not.toMatch(TERMINAL_CONTROLS);
  expect(shown).not.toMatch(BIDI);
}

/** JSON: no raw DEL, C1 or bidi control, and every line of stderr one JSON value. */
function expectSafeJson(result: CliResult): void {
  expect(result.stdout).not.toMatch(RAW_IN_JSON);
  expect(result.stderr).not.toMatch(RAW_IN_JSON);
  for (const line of result.stderr.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
}

const lastBody = (sent: Answer[]) => sent.at(-1)?.body;
/** The `{"error": …}` of a --json run's stderr. */
const errorOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!).error;
/** --json printed exactly the last answer the server sent. */
const sameAsLast = (run: Run) => expect(onlyJson(run.stdout)).toEqual(lastBody(run.sent));
/** The error's `detail` is the server's, as sent. */
const sameDetail = (run: Run) =>
  expect(errorOf(run.stderr).detail).toEqual((run.sent[0]?.body as { detail?: unknown } | undefined)?.detail);

/**
 * A property over one command: for any pool of hostile strings, each variant (a pipe, a
 * terminal, --json) exits with `code` (0 unless given) and its output is safe, and `json` checks
 * the --json run's value against what the mock sent during it.
 */
function property(
  args: (n: number) => string[] | Promise<string[]>,
  options: { code?: number; json?: (run: Run) => void; status?: number; env?: Env; input?: string } = {},
) {
  let n = 0;
  return fc.assert(
    fc.asyncProperty(pools, async (pool) => {
      for (const variant of VARIANTS) {
        const argv = await args(++n);
        const result = await cli(
          argv,
          variant,
          compromised(pool, options.status),
          options.env,
          options.input,
        );
        expect(result.code, result.stderr).toBe(options.code ?? 0);
        if (variant !== 'json') expectSafeText(result, variant);
        else {
          expectSafeJson(result);
          options.json?.(result);
        }
      }
    }),
    { numRuns: RUNS },
  );
}

/** An article for `profile` on the mock itself. */
async function article(profile: string): Promise<void> {
  const made = await h.run(['generate', profile]);
  expect(made.code).toBe(0);
}

/** A job of the mock's, started there: `fail-` profiles fail. */
async function jobOf(profile: string): Promise<string> {
  const started = await h.run(['generate', profile, '--no-wait', '--json']);
  return onlyJson(started.stdout).job_id;
}

describe('every command, against a server whose strings are hostile', () => {
  it('read', async () => {
    await article('ada-lovelace');
    await property(() => ['read', 'ada-lovelace', '--verbose'], { json: sameAsLast });
  });

  it('generate, update and the article they make', async () => {
    await property((n) => ['generate', `new-${n}`], { json: sameAsLast });
    await article('ada-lovelace');
    await property(() => ['update', 'ada-lovelace'], { json: sameAsLast });
  });

  it('generate --no-wait, and a job that fails', async () => {
    await property((n) => ['generate', `queued-${n}`, '--no-wait'], { json: sameAsLast });
    await property((n) => ['generate', `fail-${n}`], {
      code: 3,
      json: (run) => {
        sameAsLast(run);
        expect(errorOf(run.stderr).message).toContain((lastBody(run.sent) as { error: string }).error);
      },
    });
  });

  it('job, and job --wait', async () => {
    await property(async (n) => ['job', await jobOf(`fail-job-${n}`)], { json: sameAsLast });
    await property(async (n) => ['job', await jobOf(`job-${n}`), '--wait'], { json: sameAsLast });
  });

  it('credits, status and login', async () => {
    await property(() => ['credits'], { json: sameAsLast });
    await property(() => ['status'], {
      json: (run) => expect(onlyJson(run.stdout).balance).toEqual(lastBody(run.sent)),
    });
    await property(() => ['login', '--base-url', h.server.url], {
      env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined },
      input: `${KEYS.main}\n`,
      json: (run) =>
        expect(onlyJson(run.stdout).credits).toBe((lastBody(run.sent) as { credits: number }).credits),
    });
  });

  it('buy', async () => {
    await property(() => ['buy', '10'], { json: sameAsLast });
  });

  it('errors: the detail of every status, and a 402 told with the balance', async () => {
    await property(() => ['read', 'nobody-here'], { code: 1, json: sameDetail });
    await property(() => ['job', '00000000-0000-4000-8000-000000000000'], { code: 1, json: sameDetail });
    for (const [status, code] of [
      [400, 2],
      [401, 4],
      [403, 1],
      [409, 1],
      [422, 2],
    ] as const) {
      await property(() => ['credits'], { status, code, json: sameDetail });
    }
    await property((n) => ['generate', `poor-${n}`], {
      code: 5,
      env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
    });
  });

  it('a one-line field stays on one line, whatever line breaks it holds; content keeps its lines', async () => {
    await article('ada-lovelace');
    const breaks = () => compromised(['A\nB\r\nC\rD\tE']);
    const read = await cli(['read', 'ada-lovelace'], 'pipe', breaks());
    const lines = read.stdout.split('\n');
    expect(lines[0]).toBe('A B C D E');
    expect(lines).toContain('  A B C D E  A B C D E'); // an infobox row: key and value
    expect(read.stdout).toContain('\nA\nB\nC\nD\tE\n'); // the content, with its layout

    const job = await cli(['job', await jobOf('fail-lines')], 'pipe', breaks());
    expect(job.stdout).toMatch(
      /^ {2}job +[0-9a-f-]{36}\n {2}profile +A B C D E\n {2}status +\w+\n {2}credits .+\n( {2}error +A B C D E\n)?$/,
    );

    const error = await cli(['read', 'nobody-here'], 'pipe', breaks());
    expect(error.stderr.split('\n')).toEqual([
      'Error: Not found (404). A B C D E.',
      'A read never generates: use `profile-articles generate nobody-here`.',
      expect.stringMatching(/^Request id: req_\d+$/),
      '',
    ]);

    const buy = await cli(['buy', '10'], 'pipe', breaks());
    expect(buy.stdout).toBe('Pay for 10 credits for $0.50 at:\n  A B C D E\n');
  });

  it('batch: its report and the files --out writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pa-hostile-batch-'));
    await property(
      (n) => {
        const list = join(dir, `list-${n}.txt`);
        writeFileSync(list, `batch-${n}\nfail-batch-${n}\n`);
        const state = join(dir, `state-${n}.jsonl`);
        return [
          'batch',
          'generate',
          '--from',
          list,
          '--state',
          state,
          '--out',
          join(dir, `out-${n}`),
          '--yes',
        ];
      },
      // JSON Lines, one event each.
      {
        code: 3,
        json: (run) => {
          for (const line of run.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
        },
      },
    );
    const outs = readdirSync(dir).filter((name) => name.startsWith('out-'));
    expect(outs.length).toBeGreaterThan(0);
    for (const out of outs) {
      for (const file of readdirSync(join(dir, out))) {
        const text = readFileSync(join(dir, out, file), 'utf8');
        if (file.endsWith('.md')) expect(text).not.toMatch(TERMINAL_CONTROLS);
        else {
          expect(text).not.toMatch(RAW_IN_JSON);
          expect(() => JSON.parse(text)).not.toThrow();
        }
      }
    }
  });
});
