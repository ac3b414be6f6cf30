// The pager as a person meets it: an 80×24 terminal (tmux) where an article does not fit. It opens
// less, `q` quits it, and --no-pager, PAGER=cat and any other PAGER are honoured.
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

const h = useCliMock();
const SIZE = { columns: 80, rows: 24 };

const command = (extra: string) =>
  `env -u CI -u NO_COLOR -u PAGER -u LESS PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_CONFIG_DIR=${h.configDir} ${extra}; echo EXIT=$?; sleep 30`;

describe.runIf(hasTmux)('the pager, in an 80×24 terminal', () => {
  beforeEach(async () => {
    await h.run(['generate', 'ada-lovelace']);
  });

  it('pages an article that does not fit, and q quits', async () => {
    const term = openTerminal(command(`${process.execPath} ${BIN} read ada-lovelace`), SIZE);
    try {
      // less holds the screen: a full page and its ':' prompt on the last line, no exit yet.
      const paged = await term.waitFor(/\n:\s*$/);
      const lines = paged.replace(/\n$/, '').split('\n');
      expect(lines).toHaveLength(24);
      expect(lines[0]).toBe('Ada Lovelace');
      expect(lines.at(-1)?.trim()).toBe(':');
      expect(paged).not.toContain('EXIT=');
      term.type('q');
      const after = screenLines(await term.waitFor('EXIT='));
      expect(after.at(-1)).toBe('EXIT=0');
      // The charge line is the CLI's, after the pager has closed.
      expect(after.at(-2)).toMatch(/^1 credit charged · \d+ credits left$/);
    } finally {
      term.close();
    }
  });

  for (const [name, extra] of [
    ['--no-pager', `${process.execPath} ${BIN} read ada-lovelace --no-pager`],
    ['PAGER=cat', `PAGER=cat ${process.execPath} ${BIN} read ada-lovelace`],
  ]) {
    it(`${name} prints it straight, with no key to press`, async () => {
      const term = openTerminal(command(extra!), SIZE);
      try {
        const lines = screenLines(await term.waitFor('EXIT='));
        expect(lines.at(-1)).toBe('EXIT=0');
        expect(lines.join('\n')).not.toMatch(/^:$/m);
      } finally {
        term.close();
      }
    });
  }

  it('another PAGER is the one used', async () => {
    const term = openTerminal(
      command(`PAGER='sed s/^/PAGED:/' ${process.execPath} ${BIN} read ada-lovelace`),
      SIZE,
    );
    try {
      const lines = screenLines(await term.waitFor('EXIT='));
      expect(lines.at(-1)).toBe('EXIT=0');
      expect(lines.filter((l) => l.startsWith('PAGED:')).length).toBeGreaterThan(10);
    } finally {
      term.close();
    }
  });
});
