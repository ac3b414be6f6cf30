// pnpm check:openapi-lint: docs/openapi.json passes redocly's and spectral's recommended rules
// (redocly.yaml, .spectral.yaml: only the contact and license, which need a public home, are
// off). Both tools come from npm into a temporary folder, so they stay out of the lockfile.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'profile-articles-openapi-lint-'));
const tools = ['@redocly/cli@2.77.0', '@stoplight/spectral-cli@6.16.3'];
const document = join(root, 'docs/openapi.json');

try {
  writeFileSync(join(dir, 'package.json'), '{"private": true}');
  process.stdout.write(`installing ${tools.join(', ')} into ${dir}\n`);
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts', ...tools],
    {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const bin = (name) => join(dir, 'node_modules/.bin', name);
  const options = { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] };
  // Both exit non-zero on an error; warnings are failures here too (redocly only reports them).
  const redocly = spawnSync(
    bin('redocly'),
    ['lint', document, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'],
    { cwd: root, encoding: 'utf8' },
  );
  const report = `${redocly.stdout}${redocly.stderr}`;
  process.stdout.write(report);
  if (redocly.status !== 0 || /You have \d+ warnings?/.test(report))
    throw new Error('redocly lint reported problems');
  execFileSync(
    bin('spectral'),
    ['lint', document, '--ruleset', join(root, '.spectral.yaml'), '--fail-severity', 'hint'],
    options,
  );
  process.stdout.write('openapi lint: ok\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
