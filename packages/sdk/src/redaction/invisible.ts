// Characters that show nothing of their own, in one place for the SDK's redactor, the CLI's
// terminal filter and its JSON output: a server that puts them between the characters of the API
// key shows a person the whole key while a search for the key's bytes finds nothing. Unicode's
// Default_Ignorable_Code_Point property names them (soft hyphen, zero-width and bidirectional
// marks, the combining grapheme joiner, variation selectors, Hangul fillers, tag characters…),
// so the list grows with the Unicode data of the running engine rather than by hand.

/** The default-ignorable code points, for a character class of a regex with the `u` flag. */
export const DEFAULT_IGNORABLE_CLASS = '\\p{Default_Ignorable_Code_Point}';

/** C0 but tab and newline, DEL and C1: the control characters, for a character class. */
export const CONTROL_CLASS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f';
