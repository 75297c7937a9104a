import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { educProvinces, examSessions, generationItems, generations, institutionOptions, institutions, users } from '../../db/schema.ts';
import { seedCountryTemplate } from '../../seed/demo-batch.ts';

// Issue 15 item 2 (ADR 0139): names found whatever the accents, case and punctuation typed, and
// sorted the Unicode way, on the validation pages, the batch page, the batch lists and the accounts.

let ctx: TestContext;
const as: Record<string, Record<string, string>> = {};
let batchId: number;
const names: Record<string, number> = {};

const CANDIDATES = [
  ['TSHIBANGU', 'Mbuyi', 'Loïc'],
  ['ÉKOFO', 'Bolamba', 'Grâce'],
  ["N'SELE", 'Ndombasi', 'Jean-Baptiste'],
  ['Kabongo', null, 'François'],
  ['abala', 'Mwamba', 'Ruth'],
] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const templateId = await seedCountryTemplate(ctx.db);
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [school] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'));
  const [option] = await ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  const [batch] = await ctx.db
    .insert(generations)
    .values({ type: 'diplome_etat', templateId, title: 'Liste Institut Élikya', sessionId: session!.id, educProvinceId: province!.id, status: 'pending_validation' })
    .returning();
  batchId = batch!.id;
  let n = 0;
  for (const [lastName, middleName, firstName] of CANDIDATES) {
    const [item] = await ctx.db
      .insert(generationItems)
      .values({
        generationId: batchId,
        candidateCode: String(20267710000000 + ++n),
        lastName,
        middleName,
        firstName,
        birthDate: '2007-02-01',
        birthPlace: 'Kinshasa',
        gender: 'F',
        optionId: option!.optionId,
        institutionId: school!.id,
        centreId: school!.centreId,
        percentageTenths: 650,
      })
      .returning({ id: generationItems.id });
    names[lastName] = item!.id;
  }
  await ctx.db.insert(users).values({ name: 'MUKENDI', firstName: 'François', email: 'francois.mukendi@sceau.example', verifiedAt: new Date() });
  for (const role of ['validateur', 'admin']) as[role] = { authorization: `Bearer ${await signIn(ctx, `${role}@sceau.example`)}` };
}, 120_000);
afterAll(() => ctx?.close());

async function found(url: string, headers = as.validateur!): Promise<string[]> {
  const res = await ctx.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode).toBe(200);
  return res.json().data.map((i: { last_name: string }) => i.last_name);
}

describe('accent- and case-insensitive search', () => {
  it('finds François, Loïc, ÉKOFO and N’SELE typed without accents, capitals or apostrophe on both validation pages', async () => {
    for (const page of ['photos', 'data']) {
      const search = async (text: string) => found(`/api/validations/${page}/${batchId}?search=${encodeURIComponent(text)}`);
      expect(await search('francois')).toEqual(['Kabongo']);
      expect(await search('loic')).toEqual(['TSHIBANGU']);
      expect(await search('ekofo')).toEqual(['ÉKOFO']);
      expect(await search('nsele')).toEqual(["N'SELE"]);
      expect(await search("N'SÉLÉ jean-baptiste")).toEqual(["N'SELE"]);
      expect(await search('GRACE')).toEqual(['ÉKOFO']);
      // A part of the candidate code, and a word nobody has.
      expect(await search('0000003')).toEqual(["N'SELE"]);
      expect(await search('mbuyi nobody')).toEqual([]);
      // LIKE's wildcards are not wildcards: "%" and "_" fold to nothing, so they find everyone, as an empty search does.
      expect(await search('%')).toHaveLength(5);
    }
  });

  it('finds them on the batch page too', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/generations/${batchId}?search=ekofo`, headers: as.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.items.map((i: { last_name: string }) => i.last_name)).toEqual(['ÉKOFO']);
  });

  it('sorts names the Unicode way: case and accents do not split the list (abala, ÉKOFO, Kabongo, N’SELE, TSHIBANGU)', async () => {
    expect(await found(`/api/validations/photos/${batchId}`)).toEqual(['abala', 'ÉKOFO', 'Kabongo', "N'SELE", 'TSHIBANGU']);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/generations/${batchId}`, headers: as.admin });
    expect(res.json().data.items.map((i: { last_name: string }) => i.last_name)).toEqual(['abala', 'ÉKOFO', 'Kabongo', "N'SELE", 'TSHIBANGU']);
  });

  it('finds a batch by its title without accents on the validation list', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/validations?search=institut%20elikya&per_page=100', headers: as.validateur });
    expect(res.json().data.map((b: { id: number }) => b.id)).toContain(batchId);
  });

  it('finds an account by its name without accents', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users?search=francois%20mukendi&page=1', headers: as.admin });
    expect(res.statusCode).toBe(200);
    const byName = await ctx.app.inject({ method: 'GET', url: '/api/users?search=mukendi&page=1', headers: as.admin });
    expect(byName.json().data.map((u: { first_name: string }) => u.first_name)).toContain('François');
    const byFirstName = await ctx.app.inject({ method: 'GET', url: '/api/users?search=FRANCOIS&page=1', headers: as.admin });
    expect(byFirstName.json().data.map((u: { name: string }) => u.name)).toContain('MUKENDI');
  });

  it('has the searches indexed: the planner can answer a search over every batch from the trigram indexes', async () => {
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = await tx.execute(
        sql`explain select id from generation_items where sceau_fold(coalesce(last_name, '') || ' ' || coalesce(middle_name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(candidate_code, '')) like '%' || sceau_fold(${'ekofo'}) || '%'`,
      );
      expect(JSON.stringify(plan.rows)).toContain('generation_items_search_idx');
      const users = await tx.execute(
        sql`explain select id from users where sceau_fold(coalesce(name, '') || ' ' || coalesce(first_name, '')) like '%' || sceau_fold(${'francois'}) || '%'`,
      );
      expect(JSON.stringify(users.rows)).toContain('users_search_idx');
    });
  });
});
