// Ids live as long as what they name (every stored article keeps its own). Node's randomUUID
// joins its 36 characters from 20 pieces, and V8 keeps a string joined that way as a rope: 14
// strings, about 490 bytes, a third of what a stored article costs, until something reads it
// whole. Reading a character flattens the rope in place, which was enough on Node 20 (the next
// young-generation collection dropped the pieces) but not on Node 22, whose V8 keeps the rope's
// shell: about 210–390 bytes an id. A copy parsed back from its JSON text is a new flat string
// from the start: 57 bytes an id on both, whatever the id's characters (JSON round-trips every
// string exactly, lone surrogates included).

/** `newId`, its ids copied into flat strings as they are made. */
export function flatIds(newId: () => string): () => string {
  return () => JSON.parse(JSON.stringify(newId())) as string;
}
