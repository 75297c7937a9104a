import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Text as people search it (ADR 0139): `sceau_fold(text)`, a SQL function of migration 0013, is
 * lower(unaccent(text)) without anything that is not a letter or a digit, so "francois", "Loic",
 * "ekofo" and "nsele" meet "François", "LOÏC", "ÉKOFO" and "N'SELE". It is IMMUTABLE, so indexes
 * hold it (trigram GIN indexes: a search for any part of a name uses them).
 *
 * `foldedOf` builds the expression an index is declared on and a query compares with: both must be
 * the same expression for PostgreSQL to use the index, so both come from here.
 */
export function foldedOf(...parts: (AnyPgColumn | SQL)[]): SQL {
  const joined = sql.join(
    parts.map((part) => sql`coalesce(${part}, '')`),
    sql` || ' ' || `,
  );
  return sql`sceau_fold(${joined})`;
}

/** The same folding applied to what someone typed. */
export function foldedParam(text: string): SQL {
  return sql`sceau_fold(${text})`;
}

/**
 * `folded` contains what was typed, folded the same way; LIKE's wildcards cannot appear (folding keeps
 * letters and digits only). A text that folds to nothing (only punctuation) matches everything.
 */
export function foldedContains(folded: SQL, text: string): SQL {
  return sql`${folded} like '%' || ${foldedParam(text)} || '%'`;
}

/** The collation names are sorted with: Unicode's (ICU root), so ÉKOFO comes before TSHIBANGU and case does not split the list. */
export const NAME_COLLATION = 'und-x-icu';

/** `column` in name order (the collation above). */
export function byName(column: AnyPgColumn | SQL): SQL {
  return sql`${column} collate "und-x-icu"`;
}
