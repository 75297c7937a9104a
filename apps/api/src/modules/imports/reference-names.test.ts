import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centres, countries, educProvinces, institutionOptions, institutions, options } from '../../db/schema.ts';
import { bearer, createImportTest, csv, csvFile, multipart, row, type ImportTest } from './imports-test-support.ts';

// Issue 15 item 1 (ADR 0139): a list names its schools, centres and options as secretaries write them.

let t: ImportTest;
let admin: Record<string, string>;
let e1: typeof institutions.$inferSelect;
let centre: typeof centres.$inferSelect;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  [e1] = (await t.ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'))) as [typeof institutions.$inferSelect];
  [centre] = (await t.ctx.db.select().from(centres).where(eq(centres.id, e1.centreId))) as [typeof centres.$inferSelect];
  // Names of our own, so the test does not depend on the demo's: one Saint-Joseph in the province, two Lycée Bosangani.
  await t.ctx.db.update(institutions).set({ name: 'Institut Saint-Joseph' }).where(eq(institutions.id, e1.id));
  await t.ctx.db.update(centres).set({ name: 'Kinshasa-Funa I' }).where(eq(centres.id, centre.id));
  const [congo] = await t.ctx.db.select().from(countries).where(eq(countries.code, 'CD'));
  const [lit] = await t.ctx.db.select().from(options).where(eq(options.code, 'LIT'));
  for (const code of ['KIN-FUN-C1-E8', 'KIN-FUN-C1-E9']) {
    const [school] = await t.ctx.db
      .insert(institutions)
      .values({ code, name: 'Lycée Bosangani', city: 'Kinshasa', countryId: congo!.id, centreId: centre.id, educProvinceId: e1.educProvinceId })
      .returning();
    await t.ctx.db.insert(institutionOptions).values({ institutionId: school!.id, optionId: lit!.id });
  }
  // The same name in another province: the list's province decides.
  const [other] = await t.ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KCE-1'));
  const [otherCentre] = await t.ctx.db.select().from(centres).where(eq(centres.educProvinceId, other!.id)).limit(1);
  await t.ctx.db
    .insert(institutions)
    .values({ code: 'KCE-1-C1-E9', name: 'Institut Saint-Joseph', city: 'Kananga', countryId: congo!.id, centreId: otherCentre!.id, educProvinceId: other!.id });
}, 120_000);
afterAll(() => t.close());

async function check(rows: string[][], locale = 'fr') {
  const body = multipart({ template: t.templateId, generation_type: 'diplome_etat', session_id: t.sessionId, province_id: t.provinceId }, [csvFile(csv(rows))]);
  const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers, 'x-locale': locale }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { valid_rows: number; errors: { row: number; column: string; code: string; message: string }[] };
}

describe('schools, centres and options named in a list', () => {
  it('accepts names written any way (accents, case, punctuation, abbreviations) and options by their long name', async () => {
    const data = await check([
      row('20260000900001', { ecole: 'INSTITUT ST JOSEPH', centre: 'kinshasa funa 1', option: 'Littéraire' }),
      row('20260000900002', { ecole: 'institut saint joseph', centre: 'KINSHASA-FUNA I', option: 'LITTERAIRE littéraire' }),
      row('20260000900003', { ecole: 'Institut Saint-Joseph', centre: 'kin-fun-c1', option: 'lit' }),
      row('20260000900004', { ecole: 'kin fun c1 e1', centre: 'Kinshasa-Funa I', option: 'Littéraire, Littéraire' }),
    ]);
    expect(data.errors).toEqual([]);
    expect(data.valid_rows).toBe(4);
  });

  it('refuses a name several schools bear, naming them with their codes', async () => {
    const data = await check([row('20260000900011', { ecole: 'LYCEE BOSANGANI' })]);
    expect(data.errors).toEqual([
      {
        row: 2,
        column: 'ecole',
        code: 'school_ambiguous',
        message: "Plusieurs écoles portent le nom « LYCEE BOSANGANI » : Lycée Bosangani (KIN-FUN-C1-E8), Lycée Bosangani (KIN-FUN-C1-E9). Écrivez le code de l'école",
      },
    ]);
  });

  it('suggests the closest names of the province for an unknown value, in the request’s language', async () => {
    const fr = await check([row('20260000900021', { ecole: 'Institut Saint-Josef', centre: 'Kinshasa Funa Un', option: 'Scientifique Biologie Chimi' })]);
    const byColumn = Object.fromEntries(fr.errors.map((e) => [e.column, e]));
    expect(byColumn.ecole).toMatchObject({
      code: 'school_unknown',
      message: 'École inconnue : « Institut Saint-Josef ». Vouliez-vous dire : Institut Saint-Joseph (KIN-FUN-C1-E1) ?',
    });
    expect(byColumn.option).toMatchObject({ code: 'option_unknown', message: 'Option inconnue : « Scientifique Biologie Chimi ». Vouliez-vous dire : Biologie-Chimie (BC) ?' });
    const en = await check([row('20260000900022', { ecole: 'Institut Saint-Josef' })], 'en');
    expect(en.errors[0]!.message).toBe('Unknown school: “Institut Saint-Josef”. Did you mean: Institut Saint-Joseph (KIN-FUN-C1-E1)?');
    // Nothing close: the plain message.
    const none = await check([row('20260000900023', { ecole: 'Université de Lubumbashi' })], 'en');
    expect(none.errors[0]!.message).toBe('Unknown school: “Université de Lubumbashi”');
  });

  it('tells a school of another province named in the list, and a school outside the user’s scope, as before', async () => {
    const data = await check([row('20260000900031', { ecole: 'KCE-1-C1-E9' })]);
    expect(data.errors.map((e) => e.code)).toContain('school_outside_province');
  });
});
