// Start-up of the bin (issue 11, goal 7): it prints its URL before it loads the service and its
// HTTP layer. Checked by what the process has loaded at that moment, not by a stopwatch.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const UNTIL_URL = fileURLToPath(new URL('./fixtures/until-url.cjs', import.meta.url));

function loadedBeforeUrl(args: string[]): { builtins: string[]; zod: boolean } {
  const file = join(mkdtempSync(join(tmpdir(), 'mock-startup-')), 'loaded.json');
  const result = spawnSync(process.execPath, ['-r', UNTIL_URL, BIN, ...args], {
    env: { ...process.env, UNTIL_URL_FILE: file },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('profile-articles-mock start-up', () => {
  it('prints its URL before it loads zod, undici (WHATWG Request/Response) or node:http2', () => {
    const { builtins, zod } = loadedBeforeUrl(['--port', '0']);
    expect(builtins).toContain('NativeModule http');
    // Together these were two thirds of the start-up; a bare node:http server loads none.
    expect(builtins.filter((name) => /undici|http2/.test(name))).toEqual([]);
    expect(zod).toBe(false);
  });
});
