// verify against a server whose text is hostile: escape sequences in every string of every JSON
// answer, plain-text error pages full of escapes where `{detail}` belongs, JSON excerpts with
// DEL, C1 and bidirectional controls, content-type and Retry-After values with C1 controls, and
// the key echoed back in any spelling. The person running verify is who the server attacks:
// the table shows no control character, --json is the value the server sent with DEL, C1 and
// bidi written as \u escapes, and the key shows in no spelling.
import { fileURLToPath } from 'node:url';
import {
  CLIPBOARD_PAYLOAD,
  type ErrorPage,
  errorPage,
  HOSTILE_HEADER,
  hostile,
  hostileStrings,
  hostileText,
  RAW_IN_JSON,
  TERMINAL_CONTROLS,
} from '@profile-articles/test-utils/hostile-strings';
import { keyEchoes, keyLeaks } from '@profile-articles/test-utils/key-echoes';
import { type Drift, drifts } from '@profile-articles/test-utils/lying-mock';
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOf, KEY, startMock, verifyJson, verifyText } from './harness.js';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };
const TEXT_TYPE = { 'content-type': 'text/plain; charset=utf-8' };
/** Bidirectional controls: text for a person shows none, so that nothing shows reordered. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A server whose every text is `text`, each where verify shows what it got: every JSON string
 * ends in it; a job's errors are a plain-text page of it (500); an article's errors hold it in a
 * 502's `{detail}`, so that the table shows a JSON excerpt; checkout's errors carry `header` in
 * their content-type, and, with `rateLimit`, the first error of the balance is a 429 with it as
 * Retry-After (verify waits that out: only where the wait moves the mock's clock).
 */
function hostileServer(text: string, header: string, rateLimit: boolean): Drift {
  const pages: Array<[Parameters<typeof errorPage>[0], ErrorPage, number?]> = [
    ['getJob', { status: 500, headers: TEXT_TYPE, body: text }],
    ['readArticle', { status: 502, headers: JSON_TYPE, body: JSON.stringify({ detail: text }) }],
    ['createCheckout', { headers: { 'content-type': `text/html; ${header}` }, body: '{"detail":"x"}' }],
  ];
  if (rateLimit) {
    const headers = { ...JSON_TYPE, 'retry-after': header };
    pages.push(['getBalance', { status: 429, headers, body: '{"detail":"slow down"}' }, 1]);
  }
  return drifts(
    hostileStrings((original) => `${original}${text}`),
    ...pages.map(([endpoint, page, times]) => errorPage(endpoint, page, times)),
  );
}

describe.runIf(hasTmux)('verify in a terminal, against a hostile server', () => {
  it('leaves the title, the clipboard and the screen alone', async () => {
    const server = await startMock(hostileServer(hostile('server text'), HOSTILE_HEADER, false));
    const env = `env -i PATH="$PATH" PROFILE_ARTICLES_API_KEY=${KEY} PROFILE_ARTICLES_BASE_URL=${server.url}`;
    const term = openTerminal(
      `echo BEFORE; read go; ${env} ${process.execPath} ${BIN} verify; echo EXIT=$?; sleep 30`,
      { columns: 240, rows: 80 },
      { clipboard: true },
    );
    await term.waitFor('BEFORE');
    const titleBefore = term.title();
    term.keys('Enter');
    const lines = screenLines(await term.waitFor('EXIT='));
    expect(term.title()).toBe(titleBefore);
    expect(term.buffers()).toEqual([]);
    // Nothing cleared the screen: the line printed before verify ran is still first.
    expect(lines[0]).toBe('BEFORE');
    expect(lines.join('\n')).not.toContain(CLIPBOARD_PAYLOAD);
    expect(lines.at(-1)).toBe('EXIT=1');
    // Each row where the server's text shows is one line that starts as a row does: no \r or
    // cursor move wrote over it, no line break split it.
    const shown = lines.filter((line) => line.includes('server text'));
    expect(shown).toContainEqual(
      expect.stringMatching(/^FAIL {10}GET \/api\/v1\/jobs\/.* got 500 server text/),
    );
    for (const line of shown) expect(line).toMatch(/^FAIL {10}(GET|POST) \/api\/v1\//);
  });
});

/** Header values: printable ASCII and the Latin-1 upper half, C1 included (HTTP takes no other). */
const headerText = () =>
  fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), {
      minLength: 1,
      maxLength: 12,
    })
    .map((codes) => String.fromCharCode(...codes).trim() || 'x');

/** verify's excerpt of a body: its first 120 UTF-16 units. */
const EXCERPT = 120;

/**
 * `generated`, cut by whole code points until verify's excerpt holds the 502's JSON body
 * whole: JSON escapes lengthen a control character to six units, so a cut by length alone
 * (100 units, as this test first did) let an excerpt end mid-text, a failure whose shrinking
 * then ran past the test's time limit on a busy CI machine.
 */
function fitsExcerpt(generated: string): string {
  const points = [...generated];
  while (JSON.stringify({ detail: points.join('') }).length > EXCERPT) points.pop();
  return points.join('');
}

describe('verify output, whatever text the server sends', () => {
  it('the table holds no control character; --json is the value sent, with no raw DEL, C1 or bidi', async () => {
    let drift: Drift = (_request, response) => response;
    const server = await startMock((request, response, service) => drift(request, response, service));
    await fc.assert(
      fc.asyncProperty(hostileText(), headerText(), fc.boolean(), async (generated, header, json) => {
        const text = fitsExcerpt(generated);
        drift = hostileServer(text, header, true);
        if (!json) {
          const table = await verifyText(server, []);
          for (const out of [table.stdout, table.stderr]) {
            expect(out).not.toMatch(TERMINAL_CONTROLS);
            expect(out).not.toMatch(BIDI);
          }
          expect(table.code).toBe(1);
          return;
        }
        const run = await verifyJson(server, []);
        expect(run.stdout).not.toMatch(RAW_IN_JSON);
        expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
        // The value the server sent, as verify reports it.
        const sent = Buffer.from(text).toString();
        expect(checkOf(run.report, 'jobs.missing-404').got).toBe(`500 ${sent}`);
        // A JSON body carries a lone surrogate as an escape, where a text page's UTF-8 cannot.
        expect(checkOf(run.report, 'articles.long-profile-id-422').got).toBe(
          `502 ${JSON.stringify({ detail: text })}`,
        );
        expect(checkOf(run.report, 'checkout.wrong-type-422').got).toMatch(/^content-type text\/html; /);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 12) },
    );
    // Time enough for fast-check to shrink a failure to its counterexample: each of its
    // steps is a whole verify run, and a timeout reports no counterexample.
  }, 120_000);
});

/** The key's spellings, and the key cut short where verify cuts a long excerpt (120 characters). */
const ECHOES = { ...keyEchoes(KEY), 'cut short by the excerpt': `${'x'.repeat(100)}${KEY}` };
/** Header values can hold printable ASCII only of these. */
const fitsHeader = (text: string) => /^[\u0020-\u007e]+$/.test(text);

describe.each(Object.entries(ECHOES))('a server echoing the key as %s', (_name, spelling) => {
  it('the table and --json show it in no spelling', async () => {
    const header = fitsHeader(spelling) ? spelling : 'x';
    const echo = hostileServer(spelling, header, true);
    const table = await verifyText(await startMock(echo), []);
    const json = await verifyJson(await startMock(hostileServer(spelling, header, true)), []);
    for (const out of [table.stdout + table.stderr, json.stdout + json.stderr]) {
      expect(keyLeaks(out, KEY)).toEqual([]);
      // Nor a piece of it long enough to narrow a guess.
      expect(out).not.toContain(KEY.slice(0, 8));
    }
    expect(checkOf(json.report, 'jobs.missing-404').got).toContain('[redacted]');
  });
});
