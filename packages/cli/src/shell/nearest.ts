// The known word closest to a mistyped one, for "(Did you mean generate?)": only when it is close
// enough to be a slip of the fingers (commander's rule: a few edits, most letters shared).

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** The closest of `known` to `word`, or undefined when none is within 3 edits and 40% similar. */
export function nearest(word: string, known: string[]): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of known) {
    const edits = distance(word, name);
    const similar = (Math.max(word.length, name.length) - edits) / Math.max(word.length, name.length);
    if (edits <= 3 && similar > 0.4 && (!best || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}
