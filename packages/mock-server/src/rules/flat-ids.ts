// Ids live as long as what they name (every stored article keeps its own). Node's randomUUID
// joins its 36 characters from 20 pieces, and V8 keeps a string joined that way as a rope: 14
// strings, about 490 bytes, a third of what a stored article costs, until something reads it
// whole. Reading a character makes V8 flatten the rope in place, and the next young-generation
// collection drops its pieces: the id then takes 56 bytes. The id itself is unchanged.

/** `newId`, its ids flattened as they are made. */
export function flatIds(newId: () => string): () => string {
  return () => {
    const id = newId();
    id.charCodeAt(0);
    return id;
  };
}
