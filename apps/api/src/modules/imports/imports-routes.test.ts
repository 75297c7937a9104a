import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationItems, generations, importations, users } from '../../db/schema.ts';
import { hashPassword } from '../accounts/auth-service.ts';
import { bearer, createImportTest, csv, csvFile, HEADERS, multipart, portrait, row, schoolUser, xlsx, zip, type ImportTest, type UploadFile } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;
let validateur: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  validateur = await bearer(t, 'validateur@sceau.example');
});
afterAll(() => t.close());

const fields = (extra: Record<string, string | number> = {}) => ({
  template: t.templateId,
  generation_type: 'diplome_etat',
  session_id: t.sessionId,
  province_id: t.provinceId,
  ...extra,
});

async function check(files: UploadFile[], headers = admin, extra: Record<string, string | number> = {}) {
  const body = multipart(fields(extra), files);
  return t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
}

const start = (generationId: number, title: Record<string, string> = { title: 'Lot Lycée Lumière 2026' }, headers = admin) =>
  t.app.inject({ method: 'POST', url: '/api/start-import-process', headers, payload: { generation_id: generationId, ...title } });

const tracking = (id: number, headers = admin) => t.app.inject({ method: 'GET', url: `/api/importations/${id}/tracking`, headers });

type CheckError = { row: number; column: string | null; code: string; message: string };

describe('checking a student list', () => {
  it('accepts a French CSV (BOM, `;`, accents, apostrophes, hyphens, both date formats, comma decimals) and stores it with a draft batch', async () => {
    const list = csv([
      row('20260000500001', { nom: "N'Sele", prenom: 'Jean-Baptiste', sexe: 'Masculin', date_naissance: '2006-11-02' }),
      row('20260000500002', { postnom: '', sexe: 'Féminin', pourcentage: '68.1', option: 'Secrétariat-Administration' }),
      row('20260000500003', { sexe: 'H', date_naissance: '1/9/2007', pourcentage: '80 %' }),
    ]);
    const res = await check([csvFile(list)]);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ rows: 3, valid_rows: 3, errors: [], error_count: 0, format: 'csv', photos: null });
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, data.generation_id));
    expect(batch).toMatchObject({ status: 'created', title: null, type: 'diplome_etat', templateId: t.templateId, institutionId: t.schools.e1 });
    expect(await t.services.storage.get(batch!.sourceFileKey!)).toEqual(list);
    const [{ n }] = (await t.ctx.db.select({ n: count() }).from(generationItems).where(eq(generationItems.generationId, data.generation_id))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('accepts an XLSX made with a spreadsheet (codes as numbers, dates as dates, a title above the headers), read by content not name', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Candidats');
    sheet.addRow(['Liste des candidats — Lycée Lumière']);
    sheet.addRow(HEADERS.map((h) => h.toUpperCase().replace('_', ' ')));
    sheet.addRow([20260000600001, 'Mbuyamba', 'Tshilombo', 'Marie-Élodie', new Date(Date.UTC(2007, 6, 21)), 'Kananga', 'F', 'LIT', 'KIN-FUN-C1-E1', 'KIN-FUN-C1', 80.4, '']);
    sheet.addRow([20260000600002, 'Ilunga', 'wa Kalombo', 'Joseph', '30/05/2006', 'Lubumbashi', 'M', 'ELE', 'KIN-FUN-C1-E1', 'KIN-FUN-C1', 59.2, '']);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await check([{ name: 'file', filename: 'liste.txt', type: 'application/octet-stream', data }]);
    expect(res.json().data).toMatchObject({ rows: 2, valid_rows: 2, errors: [], format: 'xlsx' });
    const generated = await check([{ name: 'file', filename: 'l.xlsx', type: 'application/vnd.ms-excel', data: await xlsx([row('20260000600003')]) }]);
    expect(generated.json().data).toMatchObject({ rows: 1, valid_rows: 1, errors: [] });
  });

  it('reports every problem by row and column, translated, and still stores the draft', async () => {
    const list = csv([
      row('2026000050', {}),
      row('20260000700002', { nom: '' }),
      row('20260000700003', { prenom: '' }),
      row('20260000700004', { nom: 'Kabongo<script>' }),
      row('20260000700005', { date_naissance: '31/02/2007' }),
      row('20260000700006', { date_naissance: 'mars 2007' }),
      row('20260000700007', { date_naissance: '01/01/2020' }),
      row('20260000700008', { lieu_naissance: '' }),
      row('20260000700009', { sexe: 'X' }),
      row('20260000700010', { option: 'ZZZ' }),
      row('20260000700011', { ecole: 'NOPE' }),
      row('20260000700012', { ecole: 'KC-1-C1-E1', centre: 'KC-1-C1' }),
      row('20260000700013', { centre: 'KIN-FUN-C2' }),
      row('20260000700014', { centre: 'NOWHERE' }),
      row('20260000700015', { pourcentage: '120' }),
      row('20260000700016', { pourcentage: 'bien' }),
      row('20260000700017', { sexe: '' }),
      row('20260000700018'),
      row('20260000700018'),
    ]);
    const res = await check([csvFile(list)]);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.generation_id).toEqual(expect.any(Number));
    expect(data).toMatchObject({ rows: 19, valid_rows: 1, error_count: 18 });
    const codes = (data.errors as CheckError[]).map((e) => [e.row, e.column, e.code]);
    expect(codes).toEqual([
      [2, 'code_candidat', 'code_format'],
      [3, 'nom', 'last_name_required'],
      [4, 'prenom', 'first_name_required'],
      [5, 'nom', 'name_invalid'],
      [6, 'date_naissance', 'birth_date_invalid'],
      [7, 'date_naissance', 'birth_date_format'],
      [8, 'date_naissance', 'birth_date_implausible'],
      [9, 'lieu_naissance', 'birth_place_required'],
      [10, 'sexe', 'gender_invalid'],
      [11, 'option', 'option_unknown'],
      [12, 'ecole', 'school_unknown'],
      [13, 'ecole', 'school_outside_province'],
      [14, 'centre', 'centre_mismatch'],
      [15, 'centre', 'centre_unknown'],
      [16, 'pourcentage', 'percentage_invalid'],
      [17, 'pourcentage', 'percentage_invalid'],
      [18, 'sexe', 'gender_required'],
      [20, 'code_candidat', 'code_duplicate_in_file'],
    ]);
    const message = (r: number) => (data.errors as CheckError[]).find((e) => e.row === r)!.message;
    expect(message(2)).toBe('Le code candidat doit compter exactement 14 chiffres');
    expect(message(14)).toBe("Le centre KIN-FUN-C2 n'est pas celui de l'école (centre KIN-FUN-C1)");
    expect(message(20)).toBe('Ce code candidat figure déjà à la ligne 19');

    const en = await check([csvFile(list)], { ...admin, 'x-locale': 'en' });
    const enErrors = en.json().data.errors as CheckError[];
    expect(enErrors.find((e) => e.row === 2)!.message).toBe('The candidate code must have exactly 14 digits');
    expect(enErrors.find((e) => e.row === 11)!.message).toBe('Unknown option: “ZZZ”');
    expect(enErrors.find((e) => e.row === 8)!.message).toBe("Implausible birth date: the candidate must be between 14 and 70 years old in the session's year");
  });

  it('names the missing required columns in one error and ignores unknown ones', async () => {
    const res = await check([csvFile(csv([['20260000800001', 'Kabongo', 'x']], ['code_candidat', 'nom', 'remarque']))]);
    expect(res.json().data.errors).toEqual([
      { row: 1, column: null, code: 'missing_columns', message: expect.stringContaining('prenom, date_naissance, lieu_naissance, sexe, option, ecole, centre, pourcentage') },
    ]);
  });

  it('refuses a PNG named .csv, an old .xls, a missing file and a missing province with field messages', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const image = await check([csvFile(png, 'liste.csv')]);
    expect(image.statusCode).toBe(422);
    expect(image.json().errors.file).toEqual([
      'Ce fichier est une image, pas une liste : déposez un classeur (XLSX, ODS) ou un CSV ; les photos vont dans le fichier zip des photos',
    ]);
    const xls = await check([csvFile(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'liste.xls')], { ...admin, 'x-locale': 'en' });
    expect(xls.json().errors.file).toEqual(['The old Excel format (.xls) is not supported: save the list as XLSX, ODS or CSV (File › Save As)']);
    expect((await check([])).json().errors.file).toEqual(['Un fichier est requis']);
    const body = multipart({ template_id: t.templateId, session_id: t.sessionId }, [csvFile(csv([row('20260000800002')]))]);
    const noProvince = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
    expect(noProvince.statusCode).toBe(422);
    expect(Object.keys(noProvince.json().errors)).toEqual(['province_id']);
    const json = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: admin, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
  });

  it('refuses a list over 20 MB with 413 and a translated message', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 10, 0x41);
    const res = await check([csvFile(big)], { ...admin, 'x-locale': 'en' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large', errors: { file: ['The list must not exceed 20 MB'] } });
  });

  it('accepts the template under its three spellings and refuses an unknown one', async () => {
    for (const name of ['template_id', 'generate_id']) {
      const body = multipart({ [name]: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [csvFile(csv([row('20260000800003')]))]);
      const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
      expect(res.json().data.valid_rows).toBe(1);
    }
    const unknown = await check([csvFile(csv([row('20260000800004')]))], admin, { template: 99999 });
    expect(unknown.json().errors.template).toEqual(['Modèle inconnu']);
  });

  it('is refused to a role without generation.create', async () => {
    expect((await check([csvFile(csv([row('20260000800005')]))], validateur)).statusCode).toBe(403);
    expect((await start(1, undefined, validateur)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/import/example', headers: validateur })).statusCode).toBe(403);
    const body = multipart({ generation_id: 1 }, [csvFile(csv([row('20260000800006')]))]);
    expect((await t.app.inject({ method: 'POST', url: '/api/import/candidates', headers: { ...validateur, ...body.headers }, payload: body.payload })).statusCode).toBe(403);
  });
});

describe('importing a checked list', () => {
  it('refuses to start a draft with errors, replaces the list on re-upload, then imports it (title or titre) and tracks it', async () => {
    const bad = await check([csvFile(csv([row('20260000900001'), row('20260000900002', { sexe: '?' })]))]);
    const id = bad.json().data.generation_id as number;
    const refused = await start(id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.file).toEqual(["La liste contient 1 erreur(s) : vérifiez-la de nouveau, corrigez-la puis relancez l'importation"]);
    const [before] = await t.ctx.db.select().from(generations).where(eq(generations.id, id));

    const fixed = await check([csvFile(csv([row('20260000900001'), row('20260000900002', { sexe: 'M' })]))], admin, { generation_id: id });
    expect(fixed.json().data).toMatchObject({ generation_id: id, valid_rows: 2, errors: [] });
    const [after] = await t.ctx.db.select().from(generations).where(eq(generations.id, id));
    expect(after!.sourceFileKey).not.toBe(before!.sourceFileKey);
    expect(await t.services.storage.get(before!.sourceFileKey!)).toBeNull();

    expect((await start(id, { titre: 'x' })).statusCode).toBe(422);
    const started = await start(id, { titre: 'Lot corrigé' });
    expect(started.statusCode).toBe(202);
    const importationId = started.json().data.importation_id as number;
    expect((await tracking(importationId)).json().data).toEqual({ id: importationId, generation_id: id, status: 'queued', rows_total: 2, rows_done: 0, percent: 0, error: null });
    expect((await start(id)).statusCode).toBe(409);
    // A draft being imported is no longer replaced.
    expect((await check([csvFile(csv([row('20260000900003')]))], admin, { generation_id: id })).statusCode).toBe(409);

    await t.services.imports.job.handle({ importationId }, { id: 'test' });
    expect((await tracking(importationId)).json().data).toMatchObject({ status: 'completed', rows_total: 2, rows_done: 2, percent: 100, error: null });
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, id));
    expect(batch).toMatchObject({ status: 'pending_validation', title: 'Lot corrigé' });
    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, id));
    expect(items.map((i) => [i.candidateCode, i.photoStatus, i.dataStatus, i.sourceRow])).toEqual([
      ['20260000900001', 'pending', 'pending', 2],
      ['20260000900002', 'pending', 'pending', 3],
    ]);
    expect((await start(id)).statusCode).toBe(409);

    // The same candidates in a new list of the session: already imported.
    const again = await check([csvFile(csv([row('20260000900002'), row('20260000900004')]))]);
    expect(again.json().data.errors).toEqual([
      { row: 2, column: 'code_candidat', code: 'code_already_imported', message: `Ce candidat figure déjà dans le lot n° ${id} de cette session` },
    ]);
  });

  it('takes photos from a zip (named in the list or by candidate code), normalised to 300×400 JPEGs under 30 KB', async () => {
    const photos = await zip({
      'photos/Kabongo.JPG': await portrait(10),
      '20260001000002.png': await sharp(await portrait(200, 800, 600))
        .png()
        .toBuffer(),
      '__MACOSX/._Kabongo.JPG': Buffer.from('junk'),
      'notes.txt': Buffer.from('not a photo'),
    });
    const missing = await check([
      csvFile(
        csv([
          row('20260001000001', { photo: 'kabongo.jpg' }),
          row('20260001000002'),
          row('20260001000003', { photo: 'absent.jpg' }),
          row('20260001000004', { photo: 'notes.txt' }),
        ]),
      ),
      { name: 'photos', filename: 'photos.zip', type: 'application/zip', data: photos },
    ]);
    const data = missing.json().data;
    // The 800 × 600 PNG is landscape: a warning naming its row and file, the row still imported.
    expect(data.photos).toEqual({
      files: 3,
      matched: 2,
      missing: [],
      warnings: [{ row: 3, candidate_code: '20260001000002', file: '20260001000002.png', code: 'photo_landscape', message: expect.stringContaining('paysage') }],
    });
    expect((data.errors as CheckError[]).map((e) => [e.row, e.column, e.code])).toEqual([
      [4, 'photo', 'photo_not_in_zip'],
      [5, 'photo', 'photo_unreadable'],
    ]);
    // Fixed list, the zip already stored with the draft is kept.
    const fixed = await check([csvFile(csv([row('20260001000001', { photo: 'Kabongo.jpg' }), row('20260001000002'), row('20260001000003')]))], admin, {
      generation_id: data.generation_id,
    });
    // The row left without a photo is named, not counted.
    expect(fixed.json().data).toMatchObject({ valid_rows: 3, errors: [], photos: { files: 3, matched: 2, missing: [{ row: 4, candidate_code: '20260001000003' }] } });

    const started = await start(data.generation_id);
    await t.services.imports.job.handle({ importationId: started.json().data.importation_id }, { id: 'test' });
    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, data.generation_id));
    // Each under a key of its own (newPhotoKey).
    expect(items.map((i) => i.photoKey)).toEqual([
      expect.stringMatching(new RegExp(`^photos/${data.generation_id}/20260001000001-[0-9a-f]{16}-[0-9a-f]{8}\\.jpg$`)),
      expect.stringMatching(new RegExp(`^photos/${data.generation_id}/20260001000002-[0-9a-f]{16}-[0-9a-f]{8}\\.jpg$`)),
      null,
    ]);
    for (const key of [items[0]!.photoKey!, items[1]!.photoKey!]) {
      const jpeg = (await t.services.storage.get(key))!;
      expect(jpeg.length).toBeLessThanOrEqual(30_000);
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 400 });
    }
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, data.generation_id));
    expect(batch!.sourcePhotosKey).toBeNull();
  });

  it('adds candidates to a batch being validated (import/candidates), all or nothing', async () => {
    const first = await check([csvFile(csv([row('20260001100001')]))]);
    const id = first.json().data.generation_id as number;
    await t.services.imports.job.handle({ importationId: (await start(id)).json().data.importation_id }, { id: 'test' });
    const send = (list: Buffer, generationId = id, headers = admin) => {
      const body = multipart({ generation_id: generationId }, [csvFile(list)]);
      return t.app.inject({ method: 'POST', url: '/api/import/candidates', headers: { ...headers, ...body.headers }, payload: body.payload });
    };
    const refused = await send(csv([row('20260001100002'), row('20260001100001'), row('20260001100003', { pourcentage: '' })]));
    expect(refused.statusCode).toBe(200);
    expect(refused.json().data).toMatchObject({ importation_id: null, valid_rows: 1, error_count: 2 });
    expect((refused.json().data.errors as CheckError[]).map((e) => e.code)).toEqual(['code_already_imported', 'percentage_required']);

    const accepted = await send(csv([row('20260001100002'), row('20260001100003', { sexe: 'F' })]));
    expect(accepted.statusCode).toBe(202);
    const importationId = accepted.json().data.importation_id as number;
    await t.services.imports.job.handle({ importationId }, { id: 'test' });
    expect((await tracking(importationId)).json().data.status).toBe('completed');
    const items = await t.ctx.db.select({ code: generationItems.candidateCode }).from(generationItems).where(eq(generationItems.generationId, id));
    expect(items.map((i) => i.code).sort()).toEqual(['20260001100001', '20260001100002', '20260001100003']);
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, id));
    expect(batch!.status).toBe('pending_validation');
    expect((await send(csv([row('20260001100004')]), 999999)).statusCode).toBe(404);
  });

  it('keeps a school-bound user to their school: other schools refused by row, other batches not found', async () => {
    const e2User = await schoolUser(t, 'agent.e2@ecole.example', t.schools.e2);
    const theirs = await check([csvFile(csv([row('20260001200001'), row('20260001200002', { ecole: 'KIN-FUN-C1-E2', option: 'MP' })]))], e2User);
    expect(theirs.json().data.errors.map((e: CheckError) => [e.row, e.code])).toEqual([[2, 'school_outside_scope']]);

    const adminBatch = await check([csvFile(csv([row('20260001200003')]))]);
    const adminId = adminBatch.json().data.generation_id as number;
    expect((await start(adminId, undefined, e2User)).statusCode).toBe(404);
    expect((await check([csvFile(csv([row('20260001200004', { ecole: 'KIN-FUN-C1-E2', option: 'MP' })]))], e2User, { generation_id: adminId })).statusCode).toBe(404);
    const started = await start(adminId);
    expect((await tracking(started.json().data.importation_id, e2User)).statusCode).toBe(404);

    const own = await check([csvFile(csv([row('20260001200005', { ecole: 'KIN-FUN-C1-E2', option: 'MP' })]))], e2User);
    const ownId = own.json().data.generation_id as number;
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, ownId));
    expect(batch!.institutionId).toBe(t.schools.e2);
    expect((await start(ownId, undefined, e2User)).statusCode).toBe(202);
    const otherProvince = await check([csvFile(csv([row('20260001200006')]))], e2User, { province_id: t.provinceId + 1 });
    expect(otherProvince.json().errors.province_id).toEqual(["Cette province éducationnelle n'est pas dans votre périmètre"]);
  });
});

describe('finding an import again', () => {
  const mine = (headers = admin, query = '') => t.app.inject({ method: 'GET', url: `/api/importations${query}`, headers });
  const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((i) => i.id);

  it("lists the user's imports running and recent, with their batch and progress, newest first", async () => {
    const checked = await check([csvFile(csv([row('20260001300001'), row('20260001300002')]))]);
    const generationId = checked.json().data.generation_id as number;
    const importationId = (await start(generationId, { title: 'Lot à retrouver' })).json().data.importation_id as number;

    const active = await mine(admin, '?active=true');
    expect(active.statusCode).toBe(200);
    expect(active.json().data[0]).toEqual({
      id: importationId,
      generation_id: generationId,
      status: 'queued',
      rows_total: 2,
      rows_done: 0,
      percent: 0,
      error: null,
      kind: 'list',
      created_at: expect.any(String),
      finished_at: null,
      generation: { id: generationId, title: 'Lot à retrouver', template_id: t.templateId, status: 'created' },
    });
    // Not someone else's, even a national user's.
    expect(ids(await mine(await bearer(t, 'root@sceau.example')))).not.toContain(importationId);

    await t.services.imports.job.handle({ importationId }, { id: 'test' });
    expect(ids(await mine(admin, '?active=true'))).not.toContain(importationId);
    const recent = (await mine()).json().data.find((i: { id: number }) => i.id === importationId);
    expect(recent).toMatchObject({ status: 'completed', percent: 100, finished_at: expect.any(String), generation: { status: 'pending_validation' } });
    // Finished long ago: no longer listed.
    await t.ctx.db
      .update(importations)
      .set({ updatedAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(importations.id, importationId));
    expect(ids(await mine())).not.toContain(importationId);
  });

  it('keeps to the scope and to those who may follow an import', async () => {
    const e1User = await schoolUser(t, 'agent.e1@ecole.example', t.schools.e1);
    const own = await check([csvFile(csv([row('20260001400001')]))], e1User);
    const ownImport = (await start(own.json().data.generation_id, undefined, e1User)).json().data.importation_id as number;
    expect(ids(await mine(e1User, '?active=true'))).toEqual([ownImport]);
    // If the account is later moved to another school, that batch is out of its sight.
    await t.ctx.db.update(users).set({ institutionId: t.schools.e2 }).where(eq(users.email, 'agent.e1@ecole.example'));
    expect(ids(await mine(e1User))).toEqual([]);

    expect((await mine(validateur)).statusCode).toBe(200);
    await t.ctx.db.insert(users).values({ name: 'Personne', email: 'sans-role.import@sceau.example', passwordHash: await hashPassword('Sceau-Demo-2026'), verifiedAt: new Date() });
    const nobody = await mine(await bearer(t, 'sans-role.import@sceau.example'));
    expect(nobody.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/importations' })).statusCode).toBe(401);
    expect((await mine(admin, '?active=maybe')).statusCode).toBe(422);
  });
});

describe('the example list', () => {
  it('is a CSV with the exact headers and three rows that pass the check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/import/example', headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.rawPayload.subarray(3).toString('utf8').trim().split('\r\n');
    expect(text[0]).toBe('code_candidat;nom;postnom;prenom;date_naissance;lieu_naissance;sexe;option;ecole;centre;pourcentage;photo;telephone;email');
    expect(text).toHaveLength(4);
    const checked = await check([csvFile(res.rawPayload)]);
    expect(checked.json().data).toMatchObject({ rows: 3, valid_rows: 3, errors: [] });
  });

  it('is also an XLSX with the same headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/import/example?format=xlsx', headers: admin });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((workbook.worksheets[0]!.getRow(1).values as string[]).slice(1)).toEqual(HEADERS);
    expect(workbook.worksheets[0]!.actualRowCount).toBe(4);
  });
});
