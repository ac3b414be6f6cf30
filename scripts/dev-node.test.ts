// scripts/dev-node.mjs, the root's postinstall: what a contributor is told about the Node that
// pnpm runs the scripts with, on each kind of machine.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script, without types
import { nodeAdvice } from './dev-node.mjs';

type Advice = { fail: boolean; message: string };
const advice = nodeAdvice as (version: string, platform: string, registryNode: boolean) => Advice;

describe('the Node check after pnpm install', () => {
  it('says nothing on the Node 22 pnpm installs, or a newer supported one', () => {
    for (const version of ['22.23.3', '22.18.0', '24.11.0', '26.10.0'])
      expect(advice(version, 'linux-x64', true)).toEqual({ fail: false, message: '' });
  });

  it('notes a Node the tools run on but tsup 9 does not declare, without failing', () => {
    const { fail, message } = advice('23.11.1', 'darwin-arm64', false);
    expect(fail).toBe(false);
    expect(message).toMatch(/23\.11\.1.*tsup 9 declares/);
  });

  it('fails on Node 20 elsewhere than Linux x64, saying how to install Node 22', () => {
    const { fail, message } = advice('20.20.2', 'darwin-arm64', false);
    expect(fail).toBe(true);
    expect(message).toContain('need Node.js 22.12 or later');
    expect(message).toContain('Linux x64 only; this is darwin-arm64');
    expect(message).toMatch(/nvm install 22/);
    expect(message).toContain('CONTRIBUTING.md');
  });

  it('on Linux x64, tells a script run outside pnpm from a skipped install', () => {
    expect(advice('20.20.2', 'linux-x64', true).message).toContain('run scripts through\npnpm');
    expect(advice('20.20.2', 'linux-x64', false).message).toContain('--no-optional');
  });

  it('passes as the postinstall under the Node pnpm runs this test with', async () => {
    const script = fileURLToPath(new URL('./dev-node.mjs', import.meta.url));
    const { stderr } = await promisify(execFile)(process.execPath, [script]);
    expect(stderr).toBe('');
  });
});
