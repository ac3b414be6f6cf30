// --data DIR on disk: a lock, a snapshot and an append-only journal, in plain Node (no native
// code: docs/decisions/0009-mock-data.md).
//
//   mock.lock      the mock using the folder: pid, boot and PID namespace (data/lock.ts)
//   snapshot.json  the whole state (data/snapshot.ts), replaced atomically (write, fsync, rename)
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
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config-error.js';
import type { LiveData } from '../live-state.js';
import { createDataIds } from './ids.js';
import { JOURNAL_VERSION, line } from './journal-format.js';
import { checkJournalIsOurs, handleDamage, type JournalRead, readJournal } from './journal-read.js';
import { LockHeldError, NotALockError, STALE_MS, takeLock } from './lock.js';
import type { DataRecord } from './records.js';
import { SNAPSHOT_VERSION, type Snapshot } from './snapshot.js';

/** Records after which a running mock writes a snapshot (a start replays at most about this many). */
const COMPACT_AFTER_RECORDS = 20_000;

export interface DataFolder extends LiveData {
  /** Resolves once every change recorded so far is on disk; undefined when it already is. */
  whenDurable(): Promise<void> | undefined;
  /** What the start found and did: torn bytes cut off, records replayed. */
  readonly recovered: { droppedBytes: number; replayed: number };
  /** Writes what is pending, takes a snapshot and lets the folder go. */
  close(): Promise<void>;
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `text` to `path` so that a crash leaves the old file or the new, never part of one. */
function replaceFile(dir: string, name: string, text: string): void {
  const temporary = join(dir, `${name}.tmp`);
  const fd = fs.openSync(temporary, 'w');
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, join(dir, name));
  fsyncDir(dir);
}

/** Takes the folder's lock (data/lock.ts), or says which mock holds it. */
function lock(dir: string): () => void {
  const path = join(dir, 'mock.lock');
  try {
    return takeLock(path);
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
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`Cannot use ${dir} as the data folder (${(error as NodeJS.ErrnoException).code})`);
  }
  const unlock = lock(dir);
  try {
    return openLocked(dir, onError, onNote, unlock, options);
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
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(text) as Snapshot;
  } catch {
    snapshot = undefined as unknown as Snapshot;
  }
  if (snapshot?.version !== SNAPSHOT_VERSION)
    throw new ConfigError(
      `The data folder's snapshot.json in ${dir} is not one this mock wrote (version ${SNAPSHOT_VERSION}); move it away to start afresh`,
    );
  return snapshot;
}

function openLocked(
  dir: string,
  onError: (error: unknown) => void,
  onNote: (line: string) => void,
  unlock: () => void,
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
      (text) => replaceFile(dir, 'journal.log', text),
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
    fd = fs.openSync(journalPath, 'a');
  } else {
    replaceFile(dir, 'journal.log', line({ journal: JOURNAL_VERSION, generation, seed }));
    fd = fs.openSync(journalPath, 'a');
  }
  const ids = createDataIds(snapshot?.ids ?? { seed, counter: 0, epoch: 0 });

  let takeSnapshot: ((generation: number) => Snapshot) | undefined;
  let sinceSnapshot = records.length;
  let pending: string[] = [];
  /** The changes of the request under way, made one line once its turn ends. */
  let turn: DataRecord[] = [];
  let appended = 0;
  let written = 0;
  let writing = false;
  let failure: Error | undefined;
  let closed = false;
  const waiters: Array<{ upTo: number; resolve: () => void; reject: (error: Error) => void }> = [];

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i] as (typeof waiters)[number];
      if (failure) waiter.reject(failure);
      else if (waiter.upTo <= written) waiter.resolve();
      else continue;
      waiters.splice(i, 1);
    }
  };

  /** Takes every record in, in a snapshot of generation + 1 and a new, empty journal. */
  const compact = () => {
    if (!takeSnapshot) return;
    generation++;
    replaceFile(dir, 'snapshot.json', JSON.stringify(takeSnapshot(generation)));
    fs.closeSync(fd);
    replaceFile(dir, 'journal.log', line({ journal: JOURNAL_VERSION, generation, seed }));
    fd = fs.openSync(journalPath, 'a');
    pending = [];
    written = appended;
    sinceSnapshot = 0;
  };

  const endTurn = () => {
    if (turn.length === 0) return;
    pending.push(line(turn));
    turn = [];
    appended++;
    sinceSnapshot++;
    // Written once the current turn is over, with whatever else came meanwhile.
    if (!writing) queueMicrotask(writeNext);
  };

  const writeNext = () => {
    if (writing || failure) return;
    if (pending.length === 0) {
      if (sinceSnapshot >= COMPACT_AFTER_RECORDS && !closed) {
        try {
          compact();
        } catch (error) {
          failure = error as Error;
        }
        settle();
      }
      return;
    }
    writing = true;
    const batch = pending.join('');
    const upTo = appended;
    pending = [];
    fs.write(fd, batch, (writeError) => {
      if (writeError) return done(writeError);
      fs.fdatasync(fd, (syncError) => done(syncError, upTo));
    });
  };
  const done = (error: Error | null, upTo?: number) => {
    writing = false;
    if (error) {
      failure = error;
      onError(
        new Error(
          `data folder: cannot write the journal (${(error as NodeJS.ErrnoException).code ?? error.message})`,
        ),
      );
    } else if (upTo !== undefined) written = upTo;
    settle();
    writeNext();
  };

  return {
    ids,
    snapshot,
    records,
    recovered: { droppedBytes, replayed: records.length },
    note: onNote,
    attach(snapshotOf) {
      takeSnapshot = snapshotOf;
    },
    record(change) {
      turn.push(change);
      if (turn.length === 1) queueMicrotask(endTurn);
    },
    whenDurable() {
      if (failure) return Promise.reject(failure);
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
        if (!failure && sinceSnapshot > 0) compact();
      } finally {
        fs.closeSync(fd);
        unlock();
      }
    },
  };
}
