// Folders a benchmark writes into (--data folders, configs), removed when its process exits,
// however it exits: a run used to leave a few MB in the temp folder each time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
process.once('exit', () => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A new empty folder under the temp folder, removed at exit. */
export function scratchFolder(prefix) {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}

/** A path for a --data folder that does not exist yet (the mock makes it), removed at exit. */
export const newDataFolder = (prefix = 'bench-data-') => join(scratchFolder(prefix), 'data');
