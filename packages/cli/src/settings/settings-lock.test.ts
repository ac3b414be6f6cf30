// The settings lock's last check before the rename: a write under a lock that is no longer this
// run's (deleted by hand while the run stalled, and taken by another run) is not made.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSettingsLock } from './settings-lock.js';

describe('withSettingsLock', () => {
  it('says the lock is ours while it is, and not once another run holds a lock of that name', () => {
    const settings = join(mkdtempSync(join(tmpdir(), 'cli-settings-lock-')), 'config.json');
    const seen = withSettingsLock(settings, (lock) => {
      const before = lock.stillOurs();
      rmSync(`${settings}.lock`);
      writeFileSync(`${settings}.lock`, `${process.pid + 1} other-boot other-namespace\n`);
      return [before, lock.stillOurs()];
    });
    expect(seen).toEqual([true, false]);
  });
});
