/** Exports back to schools (issue 15 item 8, ADR 0143): a list check's errors and a batch's rejected candidates, as XLSX and CSV. */
import { eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centres, generationItems, generations, institutions, options, users } from '../../db/schema.ts';
import { csvField, csvLine } from '../../lib/table-export.ts';
import { bearer, createImportTest, csv, csvFile, multipart, row, schoolUser, type ImportTest } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;
let validateur: Record<string, string>;
/** A school-bound admin of the other school (E2): the E1 batches are outside its scope. */
let otherSchool: Record<string, string>;
const batches: number[] = [];

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  validateur = await bearer(t, 'validateur@sceau.example');
  otherSchool = await schoolUser(t, 'export-e2@sceau.example', t.schools.e2);
});
afterAll(async () => {
  if (batches.length) await t.ctx.db.delete(generations).where(inArray(generations.id, batches));
  await t.ctx.db.delete(users).where(eq(users.email, 'export-e2@sceau.example'));
  await t.close();
});

async function workbookOf(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return { name: sheet.name, rows };
}

/** A list checked by the national admin: row 2 right, row 3 with a wrong gender, row 4 with an unknown school and a formula-looking name. */
async function checkedDraft(): Promise<number> {
  const list = csv([row('20260000900001'), row('20260000900002', { sexe: 'X' }), row('20260000900003', { ecole: 'Institut Inconnu', nom: '=HYPERLINK("x")' })]);
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [csvFile(list)]);
  const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.error_count).toBeGreaterThanOrEqual(3);
  batches.push(res.json().data.generation_id);
  return res.json().data.generation_id;
}

describe("a list check's errors as a file", () => {
  it("gives every problem as XLSX in the user's language: row, column as the file names it, value as typed, message, sheet", async () => {
    const id = await checkedDraft();
    const fr = await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors`, headers: admin });
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toContain('spreadsheetml');
    expect(fr.headers['content-disposition']).toContain(`erreurs-liste-${id}.xlsx`);
    const { name, rows } = await workbookOf(fr.rawPayload);
    expect(name).toBe('Erreurs');
    expect(rows[0]).toEqual(['Ligne', 'Colonne', 'Valeur saisie', 'Erreur', 'Feuille']);
    const gender = rows.find((r) => r[0] === 3)!;
    expect(gender[1]).toBe('G (sexe)');
    expect(gender[2]).toBe('X');
    expect(String(gender[3])).toMatch(/sexe|genre/i);
    const school = rows.find((r) => r[0] === 4 && String(r[1]).includes('ecole'))!;
    expect(school[2]).toBe('Institut Inconnu');
    expect(rows.some((r) => r[0] === 2)).toBe(false);

    const en = await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors`, headers: { ...admin, 'accept-language': 'en' } });
    const english = await workbookOf(en.rawPayload);
    expect(english.rows[0]).toEqual(['Row', 'Column', 'Value as typed', 'Error', 'Sheet']);
    expect(english.rows.find((r) => r[0] === 3)![3]).not.toBe(gender[3]);
  });

  it('gives the same as a CSV for French Excel: BOM, `;`, quoted fields, formulas defused', async () => {
    const id = await checkedDraft();
    const res = await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors?format=csv`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Ligne;Colonne;Valeur saisie;Erreur;Feuille');
    expect(lines.some((l) => l.startsWith('3;G (sexe);X;'))).toBe(true);
    // A name that a spreadsheet would run as a formula is written as text.
    expect(lines.some((l) => l.includes(`"'=HYPERLINK(""x"")"`))).toBe(true);
  });

  it('is refused outside the scope (404), without the permission (403), for an unknown format (422) and once no longer a draft (409)', async () => {
    const id = await checkedDraft();
    expect((await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors`, headers: otherSchool })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors`, headers: validateur })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors?format=pdf`, headers: admin })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors` })).statusCode).toBe(401);
    await t.ctx.db.update(generations).set({ status: 'pending_validation' }).where(eq(generations.id, id));
    expect((await t.app.inject({ method: 'GET', url: `/api/check-import-file/${id}/errors`, headers: admin })).statusCode).toBe(409);
  });
});

/** A pending batch of school E1 with `rejected` rejected candidates (and one not rejected), written directly. */
async function batchWithRejections(rejected: number): Promise<number> {
  const { db } = t.ctx;
  const [school] = await db.select().from(institutions).where(eq(institutions.id, t.schools.e1));
  const [option] = await db.select().from(options).where(eq(options.code, 'LIT'));
  const [rejecter] = await db.select().from(users).where(eq(users.email, 'validateur@sceau.example'));
  const [batch] = await db
    .insert(generations)
    .values({
      type: 'diplome_etat',
      templateId: t.templateId,
      sessionId: t.sessionId,
      title: 'Lot des rejets',
      educProvinceId: school!.educProvinceId,
      institutionId: school!.id,
      centreId: school!.centreId,
      status: 'pending_validation',
    })
    .returning();
  batches.push(batch!.id);
  const item = (n: number, isRejected: boolean) => ({
    generationId: batch!.id,
    candidateCode: `2027${String(n).padStart(10, '0')}`,
    lastName: n === 1 ? 'Ékofo; "dit" Mbala' : 'Tshibangu',
    middleName: null,
    firstName: 'Loïc',
    birthDate: '2007-02-01',
    birthPlace: 'Matadi',
    gender: 'M' as const,
    optionId: option!.id,
    institutionId: school!.id,
    centreId: school!.centreId,
    percentageTenths: 650,
    sourceRow: n + 1,
    rejected: isRejected,
    rejectionReason: isRejected ? 'Photo floue' : null,
    rejectedBy: isRejected ? rejecter!.id : null,
    rejectedAt: isRejected ? new Date('2026-11-20T08:30:00Z') : null,
  });
  const all = [...Array.from({ length: rejected }, (_, i) => item(i + 1, true)), item(rejected + 1, false)];
  for (let i = 0; i < all.length; i += 1000) await db.insert(generationItems).values(all.slice(i, i + 1000));
  return batch!.id;
}

describe("a batch's rejected candidates as a file", () => {
  it('streams every rejected candidate across several pages as CSV, and only those', async () => {
    const id = await batchWithRejections(2_345);
    const res = await t.app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected/export?format=csv`, headers: validateur });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`candidats-rejetes-lot-${id}.csv`);
    const lines = res.rawPayload.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Code candidat;Nom;Postnom;Prénom;Ligne de la liste;École;Centre;Option;Motif du rejet;Rejeté par;Rejeté le');
    expect(lines).toHaveLength(2_346);
    const [school] = await t.ctx.db.select().from(institutions).where(eq(institutions.id, t.schools.e1));
    const [centre] = await t.ctx.db.select().from(centres).where(eq(centres.id, school!.centreId));
    expect(lines[1]).toContain(`20270000000001;"Ékofo; ""dit"" Mbala";;Loïc;2;${school!.code} ${school!.name};${centre!.code} ${centre!.name};`);
    expect(lines[1]).toContain(';Photo floue;');
    expect(lines[1]).toMatch(/;2026-11-20 08:30 UTC$/);
    expect(new Set(lines.slice(1).map((l) => l.split(';')[0])).size).toBe(2_345);
    expect(lines.some((l) => l.startsWith('20270000002346;'))).toBe(false);
  });

  it('gives an XLSX in English on request', async () => {
    const id = await batchWithRejections(3);
    const res = await t.app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected/export`, headers: { ...validateur, 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    const { name, rows } = await workbookOf(res.rawPayload);
    expect(name).toBe('Rejected candidates');
    expect(rows[0]![0]).toBe('Candidate code');
    expect(rows).toHaveLength(4);
    expect(rows[1]![8]).toBe('Photo floue');
  });

  it('is refused outside the scope (404) and without a right to see rejections (403)', async () => {
    const id = await batchWithRejections(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected/export`, headers: otherSchool })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected/export` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/generations/999999999/items/rejected/export', headers: validateur })).statusCode).toBe(404);
  });
});

describe('CSV fields', () => {
  it('quotes what needs it and defuses formulas', () => {
    expect(csvLine(['a;b', 'say "hi"', null, 12, '-3', '@x', 'plain'])).toBe('"a;b";"say ""hi""";;12;\'-3;\'@x;plain\r\n');
    expect(csvField('ligne\nsuivante')).toBe('"ligne\nsuivante"');
  });
});
