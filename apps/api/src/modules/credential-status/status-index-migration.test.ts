import { asc, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { diplomas, nationalResults } from '../../db/schema.ts';
import { createServices } from '../../services.ts';
import { insertDiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';

/** Migration 0017 on an installation that already has diplomas: each gets an index once, in issue order. */
const MIGRATION = readFileSync(new URL('../../../drizzle/0017_diploma_status_index.sql', import.meta.url), 'utf8');
const BACKFILL = MIGRATION.split('--> statement-breakpoint')
  .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
  .find((s) => s.startsWith('UPDATE'))!;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('diplomas.status_index (migration 0017)', () => {
  it('is given at insertion from the sequence, never twice', async () => {
    const services = createServices(ctx.db, ctx.config);
    const codes = (await ctx.db.select({ code: nationalResults.candidateCode }).from(nationalResults).orderBy(nationalResults.candidateCode).limit(3)).map((r) => r.code);
    for (const code of codes) await insertDiplomaFixture(ctx.db, services.storage, code);
    const rows = await ctx.db.select({ statusIndex: diplomas.statusIndex }).from(diplomas);
    expect(new Set(rows.map((r) => r.statusIndex)).size).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('numbers existing diplomas in the order they were issued', async () => {
    expect(BACKFILL).toMatch(/^UPDATE "diplomas"/);
    await ctx.db
      .transaction(async (tx) => {
        // As before the migration: no index yet, issue times apart.
        await tx.execute(sql`ALTER TABLE diplomas ALTER COLUMN status_index DROP NOT NULL`);
        await tx.execute(sql`UPDATE diplomas SET status_index = NULL, issued_at = now() - (random() * interval '300 days')`);
        await tx.execute(sql.raw(BACKFILL));
        const rows = await tx.select({ statusIndex: diplomas.statusIndex }).from(diplomas).orderBy(asc(diplomas.issuedAt), asc(diplomas.id));
        const indexes = rows.map((r) => r.statusIndex);
        expect(indexes.every((i) => Number.isInteger(i))).toBe(true);
        expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
        expect(new Set(indexes).size).toBe(indexes.length);
        tx.rollback();
      })
      .catch((error: Error) => {
        if (!/rollback/i.test(error.message)) throw error;
      });
  });
});
