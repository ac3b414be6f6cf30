// The `proxy` option's code (src/proxy.ts and the agents it loads) is in the Node entry only,
// and loads there only when a client has a proxy: the neutral entry never names the agents, and
// the Node entry reaches them by `import()` alone, in its ES module and CommonJS builds alike
// (a `require` of the agents, which are ES modules, would fail on Node before 20.19). Reads the
// built packages: run `pnpm build` first.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dist = new URL('../packages/sdk/dist/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, dist), 'utf8');
const AGENTS = /https?-proxy-agent/;

describe('the SDK bundles and the proxy agents', () => {
  it('the neutral entry never names them', () => {
    for (const file of ['index.js', 'index.cjs']) expect(read(file)).not.toMatch(AGENTS);
  });

  it('the Node entry loads them only through import()', () => {
    // ESM: node.js imports a chunk by import(), and only that chunk names the agents.
    const esm = read('node.js');
    expect(esm).not.toMatch(AGENTS);
    const chunk = /import\("\.\/(proxy-[\w-]+\.js)"\)/.exec(esm)?.[1];
    expect(chunk, 'node.js imports the proxy chunk dynamically').toBeDefined();
    const names = readdirSync(dist).filter((file) => AGENTS.test(read(file)));
    expect(names.sort()).toEqual([chunk, 'node.cjs'].sort());
    // In both, every mention is an import() of the package.
    for (const file of [chunk as string, 'node.cjs']) {
      const text = read(file);
      const mentions = text.match(/.{0,8}https?-proxy-agent/g) ?? [];
      expect(mentions.length).toBeGreaterThanOrEqual(2);
      for (const mention of mentions) expect(mention, file).toMatch(/import\("https?-proxy-agent$/);
    }
  });
});
