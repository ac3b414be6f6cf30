// The contract table is the one place a path, a method's status list or a retry rule is
// written down. This test reads every source file under packages/*/src and scripts/ (tests
// and docs may spell things out) and fails on a second copy: an API path, a list of two or
// more HTTP statuses, or a list of two or more HTTP methods. (bench/ is not read: its
// scenarios name their requests by path, and those names are the keys of recorded results.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX, ENDPOINTS } from '@profile-articles/sdk/internal';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The files allowed to spell these out: the table, and the SDK's retry rule (which the CLI imports). */
const TABLE_FILES = ['packages/sdk/src/schemas/endpoints.ts', 'packages/sdk/src/retry/retry.ts'];
/** The one list of the methods whose requests carry a body, which the mock's three readers import. */
const METHOD_LIST_OWNERS = ['packages/mock-server/src/config/limits.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return /\.(ts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

// packages/test-utils is the tests' shared helpers: tests may spell the contract out.
const files = [
  ...readdirSync(join(root, 'packages'))
    .filter((name) => name !== 'test-utils')
    .flatMap((name) => sources(join(root, 'packages', name, 'src'))),
  ...sources(join(root, 'scripts')),
]
  .map((path) => relative(root, path))
  .filter((path) => !TABLE_FILES.includes(path));

/** The first static segment of every table path, and the prefix: `/api/v1`, `/articles`, … */
const pathHeads = [
  API_PREFIX,
  ...new Set(Object.values(ENDPOINTS).map((endpoint) => `/${endpoint.path.split('/')[1]}`)),
];
/** A path in a string literal: a quote or backtick, then one of the heads. */
const pathLiteral = new RegExp(`['"\`](${pathHeads.map((head) => head.replace(/\//g, '\\/')).join('|')})\\b`);
/** A list of HTTP statuses: `[200, 502` or `Set([408, 429`. */
const statusList = /\[\s*[1-5]\d\d\s*,\s*[1-5]\d\d\b/;

/** A method as a string literal: `'POST'`. */
const methodLiteral = /(['"`])(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\1/g;
/** A type union of methods: a copy the compiler checks against the table's `HttpMethod`. */
const methodUnion = /(['"`])[A-Z]+\1(\s*\|\s*(['"`])[A-Z]+\3)+/g;
/**
 * A list of HTTP methods as values: `['POST', 'PUT', 'PATCH']`, or `m === 'POST' || m === 'PUT'`.
 * Two or more different methods on a line, outside a type union.
 */
const methodList = {
  test: (line: string) =>
    new Set([...line.replace(methodUnion, '').matchAll(methodLiteral)].map((m) => m[2])).size >= 2,
};

/** `file:line: text` for every line of every file that matches. */
function offenders(pattern: { test(line: string): boolean }, owners: string[] = []): string[] {
  return files
    .filter((file) => !owners.includes(file))
    .flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          pattern.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
}

describe('the contract is spelled out once', () => {
  it('reads the files it means to', () => {
    expect(files).toContain('packages/cli/src/terminal/http-trace.ts');
    expect(files).toContain('scripts/soak.mjs');
  });

  it('no API path outside the contract table', () => {
    expect(offenders(pathLiteral)).toEqual([]);
  });

  it('no list of HTTP statuses outside the contract table', () => {
    expect(offenders(statusList)).toEqual([]);
  });

  it('no list of HTTP methods outside its owner', () => {
    expect(offenders(methodList, METHOD_LIST_OWNERS)).toEqual([]);
  });

  it('knows a method list when it sees one, and a type union from it', () => {
    expect(methodList.test("const BODY = ['POST', 'PUT', 'PATCH'];")).toBe(true);
    expect(methodList.test("if (method === 'POST' || method === 'PUT') {")).toBe(true);
    expect(methodList.test("if (method !== 'POST' && method !== 'PATCH') return;")).toBe(true);
    expect(methodList.test("if (method === 'HEAD') return wrongMethod(routes, 'HEAD', path);")).toBe(false);
    expect(methodList.test("  method: 'GET' | 'POST';")).toBe(false);
  });
});
