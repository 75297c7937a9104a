/** A LIKE/ILIKE operand that matches `text` literally (its `%`, `_` and `\` escaped). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE/ILIKE pattern for "contains `text`". */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
