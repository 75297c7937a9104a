import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { countries, institutions, templates } from '../../db/schema.ts';
import { seedSchoolTemplate } from './templates-seed.ts';

let ctx: TestContext;
let admin: Record<string, string>;
let congoId: number;
let schoolId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
  congoId = (await ctx.db.select().from(countries).where(eq(countries.code, 'CD')))[0]!.id;
  schoolId = (await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1')))[0]!.id;
});
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = admin) => ctx.app.inject({ method: 'GET', url, headers });

describe('templates', () => {
  it("answers the country's Diplôme d'État template with its design", async () => {
    const res = await get('/api/templates/drc');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      name: "Diplôme d'État",
      generation_type: 'diplome_etat',
      based_on_id: null,
      owner: { type: 'country', id: congoId, key: `${congoId}_country`, name: 'République démocratique du Congo' },
    });
    expect(data.design).toMatchObject({ id: 'cd-diplome-etat', photo: expect.any(Object), fields: expect.any(Array) });
    expect((await get('/api/templates/drc', { ...admin, 'x-locale': 'en' })).json().data.owner.name).toBe('Democratic Republic of the Congo');
  });

  it("lists an owner's templates under both spellings; the school's custom one is made from the country's", async () => {
    const drc = (await get('/api/templates/drc')).json().data;
    const country = await get(`/api/templates?owner=${congoId}_country`);
    expect(country.json().data.map((x: { id: number }) => x.id)).toEqual([drc.id]);
    const school = await get(`/api/templates?owner=${schoolId}_institution`);
    expect(school.json().data).toEqual([
      expect.objectContaining({
        name: "Diplôme d'État — Lycée Lumière",
        based_on_id: drc.id,
        owner: expect.objectContaining({ type: 'institution', id: schoolId, key: `${schoolId}_institution`, name: 'Lycée Lumière' }),
      }),
    ]);
    expect((await get(`/api/templates?owner=institution_${schoolId}`)).json().data).toEqual(school.json().data);
    const custom = await get(`/api/templates/${school.json().data[0].id}`);
    const design = JSON.stringify(custom.json().data.design);
    expect(design).toContain('#6d1f33');
    expect(design).not.toContain('#1d3461');
    expect((await get('/api/templates')).json().data.length).toBeGreaterThanOrEqual(2);
    const bad = await get('/api/templates?owner=12_school');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.owner).toEqual(['Propriétaire invalide : {id}_country ou {id}_institution']);
  });

  it('seeds the custom template once', async () => {
    const drcId = (await get('/api/templates/drc')).json().data.id as number;
    const first = await seedSchoolTemplate(ctx.db, drcId);
    expect(await seedSchoolTemplate(ctx.db, drcId)).toBe(first);
    expect(
      await ctx.db
        .select()
        .from(templates)
        .where(and(eq(templates.ownerType, 'institution'), eq(templates.ownerId, schoolId))),
    ).toHaveLength(1);
  });

  it('answers 404 for an unknown template and needs a generation permission', async () => {
    expect((await get('/api/templates/999999')).statusCode).toBe(404);
    expect((await get('/api/templates/drc', {})).statusCode).toBe(401);
    const validator = { authorization: `Bearer ${await signIn(ctx, 'validator@sceau.example')}` };
    expect((await get('/api/templates', validator)).statusCode).toBe(200);
  });

  it('lists the generation types with translated labels', async () => {
    expect((await get('/api/generations/types')).json().data).toEqual([
      { code: 'diplome_etat', label: "Diplôme d'État" },
      { code: 'attestation_reussite', label: 'Attestation de réussite' },
    ]);
    expect((await get('/api/generations/types', { ...admin, 'x-locale': 'en' })).json().data[0].label).toBe('State Diploma');
  });

  it('migration 0013 brings a stored copy of the old national design to the agreeing wording, and leaves hand-made texts', async () => {
    const { readFile } = await import('node:fs/promises');
    const { sql } = await import('drizzle-orm');
    const [country] = await ctx.db
      .select()
      .from(templates)
      .where(eq(templates.id, (await get('/api/templates/drc')).json().data.id));
    const old = JSON.parse(
      JSON.stringify(country!.design).replace('{born} à {birthPlace}', 'né(e) à {birthPlace}').replace('{ministerTitle} atteste que', 'le Ministre atteste que'),
    ) as Record<string, unknown>;
    const own = { ...old, background: [{ type: 'text', text: 'Le Recteur atteste que', x: 10, y: 10, style: { font: 'regular', size: 10 } }], fields: [] };
    const rows = await ctx.db
      .insert(templates)
      .values([
        { name: 'Ancien modèle', ownerType: 'country', ownerId: congoId, generationType: 'diplome_etat', design: old },
        { name: 'Modèle maison', ownerType: 'country', ownerId: congoId, generationType: 'diplome_etat', design: own },
      ])
      .returning({ id: templates.id });
    try {
      expect(JSON.stringify(old)).toContain('né(e) à {birthPlace}');
      const migration = await readFile(new URL('../../../drizzle/0013_template_wording_agreement.sql', import.meta.url), 'utf8');
      await ctx.db.execute(sql.raw(migration));
      const [upgraded, untouched] = await Promise.all(rows.map(async (row) => (await ctx.db.select().from(templates).where(eq(templates.id, row.id)))[0]!.design));
      const text = JSON.stringify(upgraded);
      expect(text).toContain('{born} à {birthPlace}');
      expect(text).toContain("Vu les résultats de l'Examen d'État, {ministerTitle} atteste que");
      expect(text).not.toContain('né(e)');
      expect(untouched).toEqual(own);
    } finally {
      for (const row of rows) await ctx.db.delete(templates).where(eq(templates.id, row.id));
    }
  });
});
