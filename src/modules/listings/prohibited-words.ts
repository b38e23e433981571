// Prohibited words (contract 3): case-insensitive whole words in the title, the description and
// attribute values. "Whole" means not touching a letter, digit or underscore on either side, in
// any script, so "ass" is found in "ass." but not in "class" or "assassin".

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

function wordPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'iu');
}

/** The first prohibited word found, with the field it was found in; null when there is none. */
export function findProhibitedWord(text: ListingText, words: readonly string[]): ProhibitedHit | null {
  if (words.length === 0) return null;
  const patterns = words.map((word) => ({ word, pattern: wordPattern(word) }));
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
