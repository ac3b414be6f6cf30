// The input of a batch: profile ids one per line. Lines are trimmed (CRLF included), blank
// lines and `#` comments are skipped, and a repeated id runs once.
interface ProfileList {
  /** Each id once, in the order first seen. */
  ids: string[];
  /** How many lines repeated an id already listed. */
  duplicates: number;
}

export function parseProfileList(text: string): ProfileList {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const raw of text.split(/\r?\n/)) {
    const id = raw.trim();
    if (id === '' || id.startsWith('#')) continue;
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  return { ids: [...seen], duplicates };
}
