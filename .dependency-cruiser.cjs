// `pnpm check:cycles`: no import circle in the three packages' src/ (type-only imports count:
// tsPreCompilationDeps), and each package's rooms use only the rooms below them. The layer order
// is scripts/layout/moves.json's (bottom first), the one CONTRIBUTING.md's "Layout" lists: a
// room may import its own files and the rooms before it, never one after it. The files at a
// src/ root (the entries, the client, the bins) are above every room. Tests are not held to the
// order (a unit test may build what it proves from anywhere in its package).
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const plan = JSON.parse(readFileSync(join(__dirname, 'scripts/layout/moves.json'), 'utf8'));
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One rule per room: its files may not import the rooms above it. */
function layerRules(pkg, layers) {
  return layers.slice(0, -1).map((room, i) => {
    const above = layers.slice(i + 1);
    return {
      name: `layers:${pkg.split('/')[1]}:${room}`,
      comment: `${pkg}/${room}/ may use only the rooms below it (${layers.slice(0, i).join(', ') || 'none'}), not ${above.join(', ')}`,
      severity: 'error',
      // The room's own files, not those of a room nested in it (rules/ is not rules/money/).
      from: { path: `^${escapeRegExp(pkg)}/${escapeRegExp(room)}/[^/]+$`, pathNot: '\\.test\\.ts$' },
      to: { path: `^${escapeRegExp(pkg)}/(${above.map(escapeRegExp).join('|')})/[^/]+$` },
    };
  });
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle, type-only imports included: a type two files share goes in a third.',
      severity: 'error',
      from: { path: '^packages/(sdk|cli|mock-server)/src/' },
      to: { circular: true },
    },
    ...Object.entries(plan.packages).flatMap(([pkg, spec]) => layerRules(pkg, spec.layers)),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Only the three packages: an import of another workspace package leaves the graph here.
    includeOnly: '^packages/(sdk|cli|mock-server)/src/',
    exclude: { path: '(^|/)node_modules/' },
  },
};
