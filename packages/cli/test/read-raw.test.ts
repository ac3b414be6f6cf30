// `read --raw` and `read -o FILE`: the article's Markdown alone, as a script or an editor wants
// it. The built bin against the mock over HTTP, in a pipe (the terminal is hostile-terminal.test.ts).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();

async function article(profile = 'ada-lovelace'): Promise<string> {
  expect((await h.run(['generate', profile])).code).toBe(0);
  return onlyJson((await h.run(['read', profile, '--json'])).stdout).article.content;
}

const balance = async () => onlyJson((await h.run(['credits', '--json'])).stdout).credits as number;

describe('read --raw', () => {
  it('prints the Markdown alone, unrendered, exactly as the API holds it', async () => {
    const content = await article();
    const raw = await h.cli(['read', 'ada-lovelace', '--raw']);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toBe(content.endsWith('\n') ? content : `${content}\n`);
    // The note about the cost stays on stderr, out of the way of a pipe.
    expect(raw.stderr).toMatch(/^1 credit charged · \d+ credits left$/m);
  });

  it('refuses --raw with --json, before paying', async () => {
    await article();
    const before = await balance();
    const both = await h.cli(['read', 'ada-lovelace', '--raw', '--json']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr.trim()).error.message).toBe('--raw and --json cannot be used together.');
    expect(await balance()).toBe(before);
  });
});

describe('read -o FILE', () => {
  it('-o - writes to stdout, as curl and gh take it, and makes no file named -', async () => {
    // An operator's trial: `read ID -o -` wrote a file called "-" and said "Wrote -.".
    const content = await article();
    const dash = await h.run(['read', 'ada-lovelace', '-o', '-']);
    expect(dash.code).toBe(0);
    expect(dash.stdout).toBe(content.endsWith('\n') ? content : `${content}\n`);
    expect(dash.stderr).not.toContain('Wrote');
    expect(readdirSync(process.cwd())).not.toContain('-');
  });

  it('writes the Markdown to the file and says so on stderr', async () => {
    const content = await article();
    const file = join(h.configDir, 'ada.md');
    const saved = await h.cli(['read', 'ada-lovelace', '-o', file]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe('');
    expect(saved.stderr).toContain(`Wrote ${file}.`);
    expect(readFileSync(file, 'utf8')).toBe(content);
    const json = await h.cli(['read', 'ada-lovelace', '--output', join(h.configDir, 'b.md'), '--json']);
    expect(onlyJson(json.stdout)).toEqual({ path: join(h.configDir, 'b.md'), credits_charged: 1 });
  });

  it('refuses to replace a file without --force, before paying, and replaces it with --force', async () => {
    await article();
    const file = join(h.configDir, 'notes.md');
    writeFileSync(file, 'my own notes\n');
    const before = await balance();
    const refused = await h.cli(['read', 'ada-lovelace', '-o', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`Error: ${file} already exists.\nPass --force to replace it.\n`);
    expect(readFileSync(file, 'utf8')).toBe('my own notes\n');
    expect(await balance()).toBe(before);
    const forced = await h.cli(['read', 'ada-lovelace', '-o', file, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^# |Ada/);
  });

  it('creates nothing when the read fails or the folder is missing', async () => {
    const folder = join(h.configDir, 'out');
    mkdirSync(folder);
    const missing = await h.cli(['read', 'nobody-here', '-o', join(folder, 'x.md')]);
    expect(missing.code).toBe(1);
    expect(readdirSync(folder)).toEqual([]);
    const noFolder = await h.cli(['read', 'ada-lovelace', '-o', join(folder, 'nope', 'x.md')]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toMatch(/^Error: The folder of .* does not exist\./);
    expect(readdirSync(folder)).toEqual([]);
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
