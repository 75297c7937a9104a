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
  return check(name, sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`);
}
