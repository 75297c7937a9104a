/**
 * Text PostgreSQL cannot store (NUL in text and jsonb), that no form produces, and that hides in
 * logs and exports: C0 control characters other than tab, line feed and carriage return, and
 * UTF-16 surrogates without their pair. Refused as a 422 at the edge rather than failing as a
 * 500 deep inside a query (ADR 0113).
 */
// Without the `u` flag the pattern sees UTF-16 code units, so it can find unpaired surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isUnstorableText(value: string): boolean {
  return UNSTORABLE.test(value);
}

/**
 * The paths (dots for nesting, as validation errors name fields) of every string, or object key,
 * holding unstorable text; at most `limit`. Walked with a stack, not recursion: a parsed JSON body
 * may nest deeper than the call stack.
 */
export function unstorableTextFields(value: unknown, limit = 20): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0 && found.length < limit) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnstorableText(current)) found.push(path || '_');
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push([item, path ? `${path}.${index}` : String(index)]);
      });
    } else if (current && typeof current === 'object' && !Buffer.isBuffer(current) && !ArrayBuffer.isView(current)) {
      for (const [key, item] of Object.entries(current)) {
        // A bad key is named by its parent: the key itself cannot be shown safely.
        if (isUnstorableText(key)) found.push(path || '_');
        else stack.push([item, path ? `${path}.${key}` : key]);
      }
    }
  }
  return [...new Set(found)];
}
