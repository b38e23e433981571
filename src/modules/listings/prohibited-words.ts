// Prohibited words: case-insensitive whole words in the title, the description and
// attribute values. "Whole" means not touching a letter, digit or underscore on either side, in
// any script, so "ass" is found in "ass." but not in "class" or "assassin". The words of a phrase
// may be separated by any run of whitespace; leading and trailing spaces of an entry do not count.

export interface ListingText {
  title: string;
  description: string | null;
  attributes: Record<string, string>;
}

export interface ProhibitedHit {
  /** title, description or attributes.<key> */
  param: string;
  word: string;
}

/** The words of a phrase, split on whitespace; blank entries have none and prohibit nothing. */
function wordsOf(entry: string): string[] {
  return entry.split(/\s+/u).filter((part) => part !== '');
}

/** Any run of whitespace separates the words of a phrase, so "knock  off" or "knock\noff" matches too. */
function wordPattern(words: readonly string[]): RegExp {
  const escaped = words.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'iu');
}

/** The first prohibited word found, with the field it was found in; null when there is none. */
export function findProhibitedWord(text: ListingText, words: readonly string[]): ProhibitedHit | null {
  const patterns = words.flatMap((word) => {
    const parts = wordsOf(word);
    return parts.length === 0 ? [] : [{ word: parts.join(' '), pattern: wordPattern(parts) }];
  });
  if (patterns.length === 0) return null;
  const fields: Array<[string, string | null]> = [
    ['title', text.title],
    ['description', text.description],
    ...Object.entries(text.attributes).map(([key, value]): [string, string] => [`attributes.${key}`, value]),
  ];
  for (const [param, value] of fields) {
    if (value === null) continue;
    for (const { word, pattern } of patterns) if (pattern.test(value)) return { param, word };
  }
  return null;
}
