import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, timestamp } from 'drizzle-orm/pg-core';

/** The timestamps most tables carry. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A CHECK that keeps a column within its closed set of values, so that PostgreSQL refuses what the
 * types already refuse in code (a raw SQL write, a hand-made fix). The values are our own constants,
 * written inline because a CHECK takes no parameters.
 */
export function oneOf(name: string, column: AnyPgColumn, values: readonly string[]) {
  return check(name, sql`${column} in (${sql.raw(quoted(values))})`);
}

/** The same for an array column: each of its elements within the closed set (an empty array passes, null too). */
export function eachOneOf(name: string, column: AnyPgColumn, values: readonly string[]) {
  return check(name, sql`${column} <@ array[${sql.raw(quoted(values))}]::text[]`);
}

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}
