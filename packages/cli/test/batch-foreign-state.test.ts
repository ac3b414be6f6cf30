// `batch --state FILE` pointed at a file that is not a batch state file: refused before anything
// is written, the file left byte for byte as it was, one line that names it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliMock } from './helpers.js';

const h = useCliMock();

const FOREIGN: Array<[string, Buffer]> = [
  ['a one-line JSON settings file without a trailing newline', Buffer.from('{"theme":"dark","fontSize":14}')],
  ['a JSON settings file with its newline', Buffer.from('{"theme":"dark"}\n')],
  ['a text file', Buffer.from('Things to do\n- call Bob\n- write the report')],
  ['a single word', Buffer.from('hello')],
  ['binary', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x7b])],
  [
    'JSON Lines of another program',
    Buffer.from('{"type":"send","profile_id":"bob","at":"x"}\n{"type":"end"}\n'),
  ],
  [
    'a batch record of another shape',
    Buffer.from('{"type":"batch","operation":"generate","at":"x","y":1}\n'),
  ],
  ['a prefix that no batch record has', Buffer.from('{"type":"batch","operation":"delete')],
];

function inFolder(name: string, content: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'pa-foreign-'));
  const path = join(dir, name);
  writeFileSync(path, content);
  writeFileSync(join(dir, 'list.txt'), 'alice\nbob\n');
  return { dir, path, list: join(dir, 'list.txt') };
}

describe('batch --state names a file batch did not write', () => {
  for (const [what, content] of FOREIGN) {
    it(`${what}: refused with exit 2 and one line naming it, the file untouched`, async () => {
      const { path, list } = inFolder('settings.json', content);
      // --max-credits 0 is refused later anyway: the file must survive a refused run too.
      const result = await h.run([
        'batch',
        'generate',
        '--from',
        list,
        '--state',
        path,
        '--max-credits',
        '0',
        '--yes',
      ]);
      expect(result.code).toBe(2);
      expect(readFileSync(path)).toEqual(content);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).toContain(path);
      expect(lines[0]).toMatch(/not a batch state file/);
    });
  }

  it('--json: the refusal is one {"error"} line naming the file', async () => {
    const content = Buffer.from('{"theme":"dark"}');
    const { path, list } = inFolder('settings.json', content);
    const result = await h.run(['batch', 'generate', '--from', list, '--state', path, '--yes', '--json']);
    expect(result.code).toBe(2);
    expect(readFileSync(path)).toEqual(content);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '').error.message).toContain(path);
  });

  it('a folder or a device is refused the same way', async () => {
    const { dir, list } = inFolder('unused', Buffer.alloc(0));
    for (const path of [dir, '/dev/null']) {
      const result = await h.run(['batch', 'generate', '--from', list, '--state', path, '--yes']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(path);
      expect(result.stderr).toMatch(/not a batch state file/);
    }
  });

  it('an empty file and a torn first record are taken as the batch state file they are', async () => {
    for (const content of ['', '{"type":"batch","oper']) {
      const { path, list } = inFolder('state.jsonl', Buffer.from(content));
      const result = await h.run(['batch', 'generate', '--from', list, '--state', path, '--yes', '--json']);
      expect(result.code).toBe(0);
      const records = readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(records[0]).toMatchObject({ type: 'batch', operation: 'generate' });
      expect(records.filter((record) => record.type === 'end')).toHaveLength(2);
    }
  });

  it('a lock file beside it that holds no pid is not ours either: refused, left as it is', async () => {
    const { path, list } = inFolder('state.jsonl', Buffer.alloc(0));
    writeFileSync(`${path}.lock`, 'my notes about the lock\n');
    const result = await h.run(['batch', 'generate', '--from', list, '--state', path, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path}.lock`);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe('my notes about the lock\n');
  });
});
