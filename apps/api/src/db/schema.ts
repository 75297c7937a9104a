/**
 * The database schema, one file per domain under schema/; this index is what the code and
 * drizzle-kit (drizzle.config.ts) import.
 */
export * from './schema/accounts.ts';
export * from './schema/audit.ts';
export * from './schema/contact.ts';
export * from './schema/distribution.ts';
export * from './schema/holder.ts';
export * from './schema/imports.ts';
export * from './schema/issuing.ts';
export * from './schema/oid4vci.ts';
export * from './schema/reference-data.ts';
