// Maps within maps: keyed by two strings without joining them, since a joined key is built and
// hashed anew on every lookup, where each string keeps its own hash.

/** The inner map `outer` holds under `key`, made (empty) and stored the first time. */
export function innerMap<K, IK, V>(outer: Map<K, Map<IK, V>>, key: K): Map<IK, V> {
  let inner = outer.get(key);
  if (!inner) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}
