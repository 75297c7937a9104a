import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationItems } from '../../db/schema.ts';
import { bearer, createImportTest, csv, csvFile, HEADERS, multipart, row, xlsx, type ImportTest } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
});
afterAll(() => t.close());

async function check(file: ReturnType<typeof csvFile>, locale = 'fr') {
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [file]);
  return t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers, 'x-locale': locale }, payload: body.payload });
}

describe("candidates' contacts in a student list", () => {
  it('reports a bad phone or e-mail by row and column, translated, with the per-country rules', async () => {
    const list = csv([
      row('20260007000001', { telephone: '+243 81 234', email: 'marie@' }),
      row('20260007000002', { telephone: '08123abc' }),
      row('20260007000003', { telephone: '+243 81 234 5678', email: 'Jean.Mbuyi@Example.CD' }),
    ]);
    const fr = (await check(csvFile(list))).json().data;
    expect(fr).toMatchObject({ rows: 3, valid_rows: 1, error_count: 3 });
    expect(fr.errors).toEqual([
      { row: 2, column: 'telephone', code: 'phone_length_exact', message: 'Pour ce pays, le numéro de téléphone doit contenir exactement 9 chiffres' },
      { row: 2, column: 'email', code: 'email_invalid', message: 'Adresse e-mail invalide' },
      { row: 3, column: 'telephone', code: 'phone_digits_only', message: expect.stringMatching(/^Numéro de téléphone illisible/) },
    ]);
    const en = (await check(csvFile(list), 'en')).json().data;
    expect(en.errors[0].message).toBe('For this country, the phone number must have exactly 9 digits');
    expect(en.errors[1].message).toBe('Invalid e-mail address');
  });

  it('accepts lists without the contact columns (they are optional)', async () => {
    const headers = HEADERS.filter((h) => h !== 'telephone' && h !== 'email');
    const list = csv([row('20260007000010').slice(0, headers.length)], headers);
    expect((await check(csvFile(list))).json().data).toMatchObject({ rows: 1, valid_rows: 1, errors: [] });
  });

  it('carries phone and e-mail into the batch (international form, lower-cased), from a CSV or an XLSX with aliased headers', async () => {
    const list = csv([row('20260007000020', { telephone: '0812345678', email: ' Aline.Mukendi@Example.CD ' }), row('20260007000021', { telephone: '', email: '' })]);
    const checked = (await check(csvFile(list))).json().data;
    expect(checked).toMatchObject({ valid_rows: 2, errors: [] });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/start-import-process',
      headers: admin,
      payload: { generation_id: checked.generation_id, title: 'Lot contacts' },
    });
    expect(started.statusCode).toBe(202);
    await t.services.imports.job.handle({ importationId: started.json().data.importation_id }, { id: 'contacts-1' });
    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, checked.generation_id)).orderBy(generationItems.candidateCode);
    expect(items.map((i) => [i.candidateCode, i.phone, i.email])).toEqual([
      ['20260007000020', '+243812345678', 'aline.mukendi@example.cd'],
      ['20260007000021', null, null],
    ]);

    // A spreadsheet with "Téléphone" and "Courriel" headers, the number in a number cell (its + lost).
    const aliased = HEADERS.map((h) => (h === 'telephone' ? 'Téléphone' : h === 'email' ? 'Courriel' : h));
    const book = await xlsx([row('20260007000022').map((v, i) => (HEADERS[i] === 'telephone' ? 243991234567 : HEADERS[i] === 'email' ? 'x@example.cd' : v))], aliased);
    const fromXlsx = await check({ name: 'file', filename: 'liste.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data: book });
    expect(fromXlsx.json().data).toMatchObject({ valid_rows: 1, errors: [] });
  });
});
