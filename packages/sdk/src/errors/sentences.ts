// How every error message is put together: the server's words, then the SDK's (or the CLI's)
// hint, each a sentence ending with a full stop, and never the same words twice. A server's
// detail often says what the hint says ("Not found" after "Not found (404)"), or says a thing
// twice itself; the reader gets each once.

const SENTENCE_END = /(?<=[.!?])\s+/;

/** A sentence's words for comparing: letters and digits, lower-cased, space-separated and padded. */
const wordsOf = (text: string) =>
  ` ${
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.join(' ') ?? ''
  } `;

/**
 * `parts` as one text of sentences. A sentence whose words an earlier one already holds, in
 * order, is left out; one that holds an earlier one's words replaces it.
 */
export function sentences(...parts: Array<string | undefined>): string {
  let kept: Array<[text: string, words: string]> = [];
  for (const part of parts) {
    for (const piece of (part ?? '').split(SENTENCE_END)) {
      const text = piece.trim();
      if (text === '') continue;
      const words = wordsOf(text);
      if (kept.some(([, earlier]) => earlier.includes(words))) continue;
      kept = kept.filter(([, earlier]) => !words.includes(earlier));
      kept.push([/[.!?]$/.test(text) ? text : `${text}.`, words]);
    }
  }
  return kept.map(([text]) => text).join(' ');
}

/**
 * The start of the hint of a 404 the API never gives (error-from-answer.ts): the CLI tells it by
 * this (see internal.ts). Here, not beside the hint: the internal entry imports it, and the hint's
 * module is loaded only with an error answer.
 */
export const WRONG_BASE_URL = 'The base URL looks wrong';
