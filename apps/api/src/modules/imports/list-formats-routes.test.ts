import * as XLSX from '@e965/xlsx';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationItems, generations } from '../../db/schema.ts';
import { readListKey } from './list-files.ts';
import { SHEET_NAME_MAX } from './multipart-upload.ts';
import { bearer, createImportTest, HEADERS, multipart, row, type ImportTest, type UploadFile } from './imports-test-support.ts';

/** Lists as office programs write them, through the check and the import (issue 15, item 4). */

let t: ImportTest;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
});
afterAll(() => t.close());

const ods = (data: Buffer): UploadFile => ({ name: 'file', filename: 'liste.ods', type: 'application/vnd.oasis.opendocument.spreadsheet', data });

function workbook(sheets: [string, unknown[][]][], bookType: 'ods' | 'xlsx' = 'ods'): Buffer {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of sheets) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

async function check(file: UploadFile, extra: Record<string, string> = {}, headers = admin) {
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId, ...extra }, [file]);
  return t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
}

const list = () =>
  workbook([
    ['Instructions', [['Une ligne par candidat'], ['Le code du candidat compte 14 chiffres']]],
    ['Liste', [HEADERS, row('20260000900001'), row('20260000900002', { prenom: 'Bénédicte', date_naissance: '21/07/07' }), ['Total', '', '', '', '', '', '', '', '', '', 2]]],
    ['Rattrapage', [HEADERS, row('20260000900011'), row('20260000900012'), row('20260000900013')]],
  ]);

describe('an ODS list with several sheets', () => {
  it('is checked from its list sheet, named in the answer with the others and the line left out, and imported', async () => {
    const res = await check(ods(list()));
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      rows: 2,
      valid_rows: 2,
      error_count: 0,
      format: 'ods',
      sheet: 'Liste',
      sheets: ['Instructions', 'Liste', 'Rattrapage'],
      ignored: [{ row: 4, text: 'Total · 2' }],
    });
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, data.generation_id));
    expect(batch!.sourceFileKey).toMatch(/\/list\.ods$/);
    const start = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: data.generation_id, title: 'Lot ODS' } });
    expect(start.statusCode).toBe(202);
    await t.services.imports.job.handle({ importationId: start.json().data.importation_id }, { id: 'test' });
    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, data.generation_id));
    expect(items.map((i) => [i.candidateCode, i.birthDate]).sort()).toEqual([
      ['20260000900001', '2007-03-14'],
      ['20260000900002', '2007-07-21'],
    ]);
  });

  it('is read from the sheet the form names, and the start reads that sheet again when it must re-read the list', async () => {
    const res = await check(ods(list()), { sheet: 'Rattrapage' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ rows: 3, valid_rows: 3, sheet: 'Rattrapage' });
    // The stored half of the check made stale: the start reads the list again, from the chosen sheet.
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, data.generation_id));
    const key = readListKey(batch!.sourceFileKey!);
    const stored = JSON.parse((await t.services.storage.get(key))!.toString('utf8'));
    expect(stored.sheet).toBe('Rattrapage');
    await t.services.storage.put(key, Buffer.from(JSON.stringify({ ...stored, version: -1 })));
    const start = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: data.generation_id, title: 'Lot rattrapage' } });
    expect(start.statusCode).toBe(202);
    const tracking = await t.app.inject({ method: 'GET', url: `/api/importations/${start.json().data.importation_id}/tracking`, headers: admin });
    expect(tracking.json().data.rows_total).toBe(3);
  });

  it('names the sheet it read and the sheets the workbook has when the required columns are missing', async () => {
    const res = await check(ods(list()), { sheet: 'Instructions' });
    expect(res.statusCode).toBe(200);
    const [problem] = res.json().data.errors;
    expect(problem).toMatchObject({ row: 1, column: null, code: 'missing_columns' });
    expect(problem.message).toContain('absentes de la feuille « Instructions »');
    expect(problem.message).toContain('Feuilles du classeur : Instructions, Liste, Rattrapage');
    // A CSV has no sheet: the message names the columns only.
    const csv = Buffer.from('nom;prenom\r\nA;B\r\n', 'utf8');
    const plain = (await check({ name: 'file', filename: 'liste.csv', type: 'text/csv', data: csv })).json().data.errors[0];
    expect(plain.code).toBe('missing_columns');
    expect(plain.message).toMatch(/^Colonnes obligatoires absentes : /);
  });

  it('refuses a sheet it does not have, naming those it has, and a sheet name past its bound', async () => {
    const unknown = await check(ods(list()), { sheet: 'Feuil3' }, { ...admin, 'x-locale': 'en' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.file).toEqual(['The workbook has no sheet “Feuil3”; its sheets: Instructions, Liste, Rattrapage']);
    const long = await check(ods(list()), { sheet: 'x'.repeat(SHEET_NAME_MAX + 1) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.sheet).toEqual([`Au plus ${SHEET_NAME_MAX} caractères`]);
    expect((await check(ods(list()), { sheet: 'x'.repeat(SHEET_NAME_MAX) })).json().errors.file[0]).toMatch(/^Le classeur n'a pas de feuille/);
  });
});

describe('a list whose codes a spreadsheet turned into numbers', () => {
  it('explains the cause and the fix, in both languages', async () => {
    const csv = Buffer.from(`${HEADERS.join(';')}\r\n${row('2,02680E+13').join(';')}\r\n`, 'utf8');
    const file: UploadFile = { name: 'file', filename: 'liste.csv', type: 'text/csv', data: csv };
    const fr = (await check(file)).json().data.errors[0];
    expect(fr).toMatchObject({ row: 2, column: 'code_candidat', code: 'code_scientific' });
    expect(fr.message).toContain('format Texte');
    const en = (await check(file, {}, { ...admin, 'x-locale': 'en' })).json().data.errors[0];
    expect(en.message).toContain('Format the column as Text before typing or pasting the codes');
  });
});

describe('a file that is no list', () => {
  it('is named for what it is, never "no candidate"', async () => {
    const pdf: UploadFile = { name: 'file', filename: 'liste.xlsx', type: 'application/pdf', data: Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n') };
    const res = await check(pdf, {}, { ...admin, 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['This file is a PDF document, not a list: upload the workbook (XLSX, ODS) or the CSV it was made from']);
  });
});
