// --data DIR on disk: a lock, a snapshot and an append-only journal, in plain Node (no native
// code: docs/decisions/0009-mock-data.md).
//
//   mock.lock      the mock using the folder: pid, boot and PID namespace (data/lock.ts)
//   snapshot.json  the whole state (data/snapshot.ts), replaced atomically (durable-file.ts:
//                  exclusive temporary, whole write, fsync, rename, fsync of the folder)
//   journal.log    a header line, then one line per request that changed something since the
//                  snapshot: a checksum, a space and the JSON list of its changes (data/records.ts)
//
// A request's changes are made in one synchronous turn; they become one line when it ends, so a
// crash keeps all of them or none (a job without its Idempotency-Key would be charged twice on
// a retry). The request's answer waits until the line is on disk (fdatasync): lines made
// meanwhile go in the same write (group commit). A start
// replays the journal on the snapshot; a torn tail (a line cut short by a crash, anything after
// the last whole line) is cut off, but damage before good lines refuses the start
// (data/journal-read.ts), as a journal another program wrote does. When the journal
// grows long, and when the mock stops, a new snapshot takes its records in.
//
// A full disk (a write that fails or comes out short) never loses an answered change: the
// requests whose records were in that write answer 500, their changes are undone in memory
// (the state is rebuilt from what is on disk, as a restart would), and the journal is cut back
// to its last whole record before the next write. A snapshot that cannot be written leaves the
// old snapshot and journal in place (docs/reliability.md, "Files the mock writes").
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../rules/config-error.js';
import { fsyncFolder, replaceFileDurably, writeTemporary } from './durable-file.js';
import { checkFolderFiles, prepareDataFolder, removeLeftoverTemporaries } from './folder-checks.js';
import { createDataIds } from './ids.js';
import { JOURNAL_VERSION, line } from './journal-format.js';
import { checkJournalIsOurs, handleDamage, type JournalRead, readJournal } from './journal-read.js';
import type { LiveData } from './live-state.js';
import { type HeldLock, LockHeldError, NotALockError, STALE_MS, takeLock } from './lock.js';
import type { DataRecord } from './records.js';
import { isSnapshot, SNAPSHOT_VERSION, type Snapshot } from './snapshot.js';

/** Records after which a running mock writes a snapshot (a start replays at most about this many). */
const COMPACT_AFTER_RECORDS = 20_000;

export interface DataFolder extends LiveData {
  /** Resolves once every change recorded so far is on disk; undefined when it already is. */
  whenDurable(): Promise<void> | undefined;
  /** What the start found and did: torn bytes cut off, records replayed. */
  readonly recovered: { droppedBytes: number; replayed: number };
  /** Writes what is pending, takes a snapshot and lets the folder go. */
  close(): Promise<void>;
  /** The lock was found taken by another mock: nothing more is written (data/lock.ts). */
  lockLost(): void;
}

/** The journal, opened to append: never through a link planted in its place. */
const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW;

const codeOf = (error: unknown) =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** Takes the folder's lock (data/lock.ts), or says which mock holds it. */
function lock(dir: string, onLost: () => void): HeldLock {
  const path = join(dir, 'mock.lock');
  try {
    return takeLock(path, onLost);
  } catch (error) {
    if (error instanceof NotALockError)
      throw new ConfigError(
        `The data folder's mock.lock in ${dir} is not a lock this mock wrote; it is left as it is. Move it away, or give this mock another --data folder.`,
      );
    if (!(error instanceof LockHeldError)) throw error;
    const { pid, here } = error.holder;
    const who = here ? `process ${pid}` : `process ${pid} in another container, PID namespace or boot`;
    throw new ConfigError(
      `Another mock (${who}) is using the data folder ${dir}. Stop it, or give this one another --data folder. ` +
        `If no mock runs there, delete ${path}${here ? '' : ` (or wait: a lock not refreshed for ${STALE_MS / 1000} s is taken over)`}.`,
    );
  }
}

interface DataFolderOptions {
  /** --data-recover: start from a journal with a damaged record by keeping every readable one. */
  recover?: boolean;
}

/** Opens (creating it if need be) the data folder at `dir` and reads what it holds. */
export function openDataFolder(
  dir: string,
  onError: (error: unknown) => void,
  onNote: (line: string) => void = () => {},
  options: DataFolderOptions = {},
): DataFolder {
  prepareDataFolder(dir);
  checkFolderFiles(dir, onNote);
  let lost: (() => void) | undefined;
  const unlock = lock(dir, () => lost?.());
  try {
    removeLeftoverTemporaries(dir);
    const folder = openLocked(dir, onError, onNote, unlock, options);
    lost = folder.lockLost;
    return folder;
  } catch (error) {
    unlock();
    throw error;
  }
}

function readSnapshot(dir: string): Snapshot | undefined {
  let text: string;
  try {
    text = fs.readFileSync(join(dir, 'snapshot.json'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Replaced whole by a rename, so never torn: anything unreadable was not written by the mock.
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text);
  } catch {
    snapshot = undefined;
  }
  // Of this version but not of its shape (made by hand): refused as well, before the URL.
  if (!isSnapshot(snapshot))
    throw new ConfigError(
      `The data folder's snapshot.json in ${dir} is not one this mock wrote (version ${SNAPSHOT_VERSION} or 1); move it away to start afresh`,
    );
  return snapshot;
}

function openLocked(
  dir: string,
  onError: (error: unknown) => void,
  onNote: (line: string) => void,
  unlock: HeldLock,
  options: DataFolderOptions,
): DataFolder {
  const snapshot = readSnapshot(dir);
  const journalPath = join(dir, 'journal.log');
  let journal: JournalRead = { records: [], goodBytes: 0, lines: [], foreign: false };
  let size = 0;
  try {
    const text = fs.readFileSync(journalPath);
    size = text.length;
    journal = readJournal(text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  checkJournalIsOurs(dir, journal, snapshot);
  let generation = snapshot?.generation ?? 0;
  const seed = snapshot?.ids.seed ?? journal.header?.seed ?? randomBytes(16).toString('hex');
  // A journal of an older generation is in the snapshot already (a crash between the two renames).
  const current = journal.header?.generation === generation;
  if (current && journal.damagedAt !== undefined) {
    journal = handleDamage(
      dir,
      journal,
      snapshot,
      options.recover === true,
      (text) => replaceFileDurably(journalPath, text),
      onNote,
    );
    size = journal.goodBytes;
  }
  const records = current ? journal.records : [];
  let fd: number;
  const droppedBytes = current ? size - journal.goodBytes : 0;
  if (current) {
    if (droppedBytes > 0) {
      fs.truncateSync(journalPath, journal.goodBytes);
      onNote(
        `Data folder: cut ${droppedBytes} bytes after the journal's last whole record (a write a stop interrupted; it was never answered)`,
      );
    }
    // An older version's journal is read as it is and goes on as this version's: its header is
    // rewritten (the same records after it, each line with its own checksum), so that a record
    // of a kind only this version writes is never appended under an older version's header.
    if (journal.header && journal.header.journal !== JOURNAL_VERSION) {
      const old = fs.readFileSync(journalPath);
      const header = Buffer.from(line({ journal: JOURNAL_VERSION, generation, seed }));
      replaceFileDurably(journalPath, Buffer.concat([header, old.subarray(journal.headerLine?.length ?? 0)]));
    }
    fd = fs.openSync(journalPath, APPEND);
  } else {
    replaceFileDurably(journalPath, line({ journal: JOURNAL_VERSION, generation, seed }));
    fd = fs.openSync(journalPath, APPEND);
  }
  /** The journal's length up to its last whole record on disk: where a failed write is cut back to. */
  let wholeBytes = fs.fstatSync(fd).size;
  const ids = createDataIds(snapshot?.ids ?? { seed, counter: 0, epoch: 0 });

  let takeSnapshot: ((generation: number) => Snapshot) | undefined;
  /** Rebuilds the live state from `folder.snapshot` and `folder.records` (live-state.ts). */
  let rebuild: (() => void) | undefined;
  let sinceSnapshot = records.length;
  /** A failed snapshot is tried again once this many records have come since the last one. */
  let compactAt = COMPACT_AFTER_RECORDS;
  let pending: string[] = [];
  /** The changes of the request under way, made one line once its turn ends. */
  let turn: DataRecord[] = [];
  let appended = 0;
  let written = 0;
  let writing = false;
  /** Bytes after `wholeBytes` that a failed write may have left: cut off before the next write. */
  let torn = false;
  /** Set when the folder can no longer keep changes at all (its state and files disagree). */
  let broken: Error | undefined;
  let closed = false;
  const waiters: Array<{ upTo: number; resolve: () => void; reject: (error: Error) => void }> = [];

  /**
   * Whether the folder is still ours: a mock stopped for a while (kill -STOP) may find another
   * one took the folder meanwhile. Then it writes nothing more, ever: its files are the other's.
   */
  const stillOurs = () => {
    if (broken?.name === 'LockLost') return false;
    if (unlock.stillHeld()) return true;
    broken = Object.assign(
      new Error(
        `The mock no longer holds its data folder ${dir}: another mock took it (its mock.lock is not this mock's any more), so this mock writes nothing more there and this request's changes were not kept. Stop this mock; use the other one`,
      ),
      { name: 'LockLost' },
    );
    onError(
      new Error(
        `data folder: another mock took the data folder ${dir} (mock.lock is not this mock's any more); this mock writes nothing more there and answers 500 to every change. Stop it.`,
      ),
    );
    settle(broken);
    return false;
  };

  const settle = (failure?: Error) => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i] as (typeof waiters)[number];
      if (waiter.upTo <= written) waiter.resolve();
      else if (failure) waiter.reject(failure);
      else continue;
      waiters.splice(i, 1);
    }
  };

  /** Takes every record in, in a snapshot of generation + 1 and a new, empty journal. */
  const compact = () => {
    if (!takeSnapshot || !stillOurs()) return;
    const next = generation + 1;
    // Both files are written whole and flushed before either is renamed: a full disk fails
    // here, with the old snapshot and journal in place and still in use.
    const snapshotFile = writeTemporary(join(dir, 'snapshot.json'), JSON.stringify(takeSnapshot(next)));
    let journalFile: ReturnType<typeof writeTemporary>;
    try {
      journalFile = writeTemporary(journalPath, line({ journal: JOURNAL_VERSION, generation: next, seed }));
    } catch (error) {
      snapshotFile.discard();
      throw error;
    }
    try {
      snapshotFile.commit();
    } catch (error) {
      snapshotFile.discard();
      journalFile.discard();
      throw error;
    }
    // The snapshot now holds every record: the old journal (of an older generation, which a
    // start ignores) must not be written to again.
    generation = next;
    fs.closeSync(fd);
    try {
      journalFile.commit();
      fd = fs.openSync(journalPath, APPEND);
      wholeBytes = fs.fstatSync(fd).size;
    } catch (error) {
      broken = new Error(`The mock cannot write the journal in its data folder ${dir} (${codeOf(error)})`);
      throw error;
    }
    torn = false;
    pending = [];
    written = appended;
    sinceSnapshot = 0;
    compactAt = COMPACT_AFTER_RECORDS;
    try {
      fsyncFolder(dir);
    } catch (error) {
      onError(new Error(`data folder: cannot flush the folder ${dir} after a snapshot (${codeOf(error)})`));
    }
  };

  const endTurn = () => {
    if (turn.length === 0) return;
    if (broken) {
      turn = [];
      return;
    }
    pending.push(line(turn));
    turn = [];
    appended++;
    sinceSnapshot++;
    // Written once the current turn is over, with whatever else came meanwhile.
    if (!writing) queueMicrotask(writeNext);
  };

  /**
   * A write failed or came out short: every change not on disk is undone, those in it and those
   * made on top of them since, and each request waiting for one of them answers 500 with `error`.
   */
  const undo = (cause: unknown) => {
    const code = codeOf(cause);
    const failure = new Error(
      `The mock could not write its data folder ${dir} (${code}), so this request's changes were not kept and have been undone; try again once the folder can be written`,
    );
    sinceSnapshot -= appended - written;
    appended = written;
    pending = [];
    torn = true;
    try {
      fs.ftruncateSync(fd, wholeBytes);
      torn = false;
    } catch {
      // tried again before the next write
    }
    try {
      // What a restart would read: the snapshot and the journal's whole records.
      const kept = readJournal(fs.readFileSync(journalPath).subarray(0, wholeBytes));
      folder.snapshot = readSnapshot(dir);
      folder.records = kept.records;
      ids.restore(folder.snapshot?.ids ?? { seed, counter: 0, epoch: 0 });
      rebuild?.();
      onError(
        new Error(
          `data folder: cannot write the journal (${code}); the requests in that write answered 500 and their changes were undone`,
        ),
      );
    } catch (error) {
      broken = new Error(
        `The mock cannot write its data folder ${dir} (${code}) and could not undo the changes it did not keep (${codeOf(error)}); restart it`,
      );
      onError(
        new Error(`data folder: cannot write the journal (${code}) nor undo its changes (${codeOf(error)})`),
      );
    }
    settle(broken ?? failure);
  };

  const writeNext = () => {
    if (writing || broken) return;
    if (pending.length === 0) {
      if (sinceSnapshot >= compactAt && !closed) {
        try {
          compact();
        } catch (error) {
          // The old snapshot and journal stay and are still written to: nothing is lost.
          compactAt = sinceSnapshot + COMPACT_AFTER_RECORDS;
          onError(
            new Error(
              `data folder: cannot write a snapshot in ${dir} (${codeOf(error)}); the mock goes on with the previous snapshot and the journal, and tries again after ${COMPACT_AFTER_RECORDS} more records`,
            ),
          );
        }
        settle(broken);
      }
      return;
    }
    if (!stillOurs()) return;
    writing = true;
    const batch = Buffer.from(pending.join(''));
    const upTo = appended;
    pending = [];
    if (torn) {
      try {
        fs.ftruncateSync(fd, wholeBytes);
        torn = false;
      } catch (error) {
        return done(error as Error, upTo, 0);
      }
    }
    writeFrom(batch, 0, upTo);
  };
  /** Writes the rest of `batch` from `offset`: a short write goes on, and then says why it stopped. */
  const writeFrom = (batch: Buffer, offset: number, upTo: number) => {
    fs.write(fd, batch, offset, batch.length - offset, null, (writeError, wrote) => {
      if (writeError) return done(writeError, upTo, 0);
      if (wrote <= 0) {
        const short: NodeJS.ErrnoException = new Error(`short write: ${offset} of ${batch.length} bytes`);
        short.code = 'EIO';
        return done(short, upTo, 0);
      }
      if (offset + wrote < batch.length) return writeFrom(batch, offset + wrote, upTo);
      fs.fdatasync(fd, (syncError) => done(syncError, upTo, batch.length));
    });
  };
  const done = (error: Error | null, upTo: number, bytes: number) => {
    writing = false;
    if (error) undo(error);
    else {
      written = upTo;
      wholeBytes += bytes;
      settle();
    }
    writeNext();
  };

  const folder: DataFolder = {
    lockLost: () => void stillOurs(),
    ids,
    snapshot,
    records,
    recovered: { droppedBytes, replayed: records.length },
    note: onNote,
    attach(snapshotOf, rebuildFromFolder) {
      takeSnapshot = snapshotOf;
      rebuild = rebuildFromFolder;
    },
    record(change) {
      turn.push(change);
      if (turn.length === 1) queueMicrotask(endTurn);
    },
    whenDurable() {
      if (broken) return Promise.reject(broken);
      if (turn.length) endTurn();
      if (written >= appended) return undefined;
      const upTo = appended;
      return new Promise((resolve, reject) => waiters.push({ upTo, resolve, reject }));
    },
    async close() {
      if (closed) return;
      closed = true;
      const last = this.whenDurable();
      if (last) await last.catch(() => undefined);
      try {
        if (!broken && sinceSnapshot > 0) compact();
      } catch (error) {
        throw new ConfigError(
          `The mock could not write its snapshot in the data folder ${dir} as it stopped (${codeOf(error)}). ` +
            'The folder keeps its previous snapshot and journal, which the next start replays: nothing answered is lost. Free some space there.',
        );
      } finally {
        try {
          fs.closeSync(fd);
        } catch {
          // closed already: a compaction that could not put its new journal in place
        }
        unlock();
      }
    },
  };
  return folder;
}
