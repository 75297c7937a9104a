import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { auditLog, centres, educProvinces, institutionOptions, institutions, roles, userRoles, users } from '../../db/schema.ts';
import { hashPassword } from '../accounts/auth-service.ts';

// Issue 15 item 1 (ADR 0139): national staff keep the schools and centres; /check-file offers a
// province's list within the caller's scope.

let ctx: TestContext;
const as: Record<string, Record<string, string>> = {};
let province: typeof educProvinces.$inferSelect;
let centre: typeof centres.$inferSelect;
let schoolA: typeof institutions.$inferSelect;

beforeAll(async () => {
  ctx = await createTestApp();
  [province] = (await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'))) as [typeof educProvinces.$inferSelect];
  [schoolA] = (await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'))) as [typeof institutions.$inferSelect];
  [centre] = (await ctx.db.select().from(centres).where(eq(centres.id, schoolA.centreId))) as [typeof centres.$inferSelect];
  for (const role of ['admin', 'root', 'validateur']) as[role] = { authorization: `Bearer ${await signIn(ctx, `${role}@sceau.example`)}` };
  // An admin bound to school A.
  const [user] = await ctx.db
    .insert(users)
    .values({
      name: 'Ecole',
      firstName: 'Admin',
      email: 'admin.ecole@sceau.example',
      passwordHash: await hashPassword('Sceau-Demo-2026'),
      verifiedAt: new Date(),
      institutionId: schoolA.id,
      centreId: schoolA.centreId,
      educProvinceId: schoolA.educProvinceId,
    })
    .returning();
  const [admin] = await ctx.db.select().from(roles).where(eq(roles.name, 'admin'));
  await ctx.db.insert(userRoles).values({ userId: user!.id, roleId: admin!.id });
  as.schoolAdmin = { authorization: `Bearer ${await signIn(ctx, 'admin.ecole@sceau.example')}` };
}, 120_000);
afterAll(() => ctx?.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: unknown) =>
  ctx.app.inject({ method, url, headers, payload: payload as never });
const lastAudit = async (action: string) => (await ctx.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1))[0];

function form(csv: string, filename = 'ecoles.csv') {
  const boundary = '----sceau-ref-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const importCsv = (csv: string, headers = as.admin!, locale = 'fr') => {
  const f = form(csv);
  return ctx.app.inject({ method: 'POST', url: '/api/reference-data/import', headers: { ...headers, ...f.headers, 'x-locale': locale }, payload: f.payload });
};

describe("a province's list on /check-file", () => {
  it('gives a national account every school and centre of the province, with codes, centre codes and options, privately cached', async () => {
    const res = await call('GET', `/api/reference-data/places?province=${province.id}`, as.admin!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const data = res.json().data;
    expect(data.province.code).toBe('KIN-FUN');
    expect(data.schools.length).toBeGreaterThan(3);
    for (const s of data.schools) expect(s.educ_province_id).toBe(province.id);
    expect(data.schools.find((s: { code: string }) => s.code === 'KIN-FUN-C1-E1')).toMatchObject({ centre_code: centre.code, option_codes: expect.arrayContaining(['LIT']) });
    expect(data.centres.map((c: { code: string }) => c.code)).toContain(centre.code);
    expect(data.options.map((o: { code: string }) => o.code)).toContain('BC');
    expect(data.abilities).toEqual({ manage: true });
  });

  it('gives a school-bound account its own school and centre only, and no management', async () => {
    const data = (await call('GET', `/api/reference-data/places?province=${province.id}`, as.schoolAdmin!)).json().data;
    expect(data.schools.map((s: { code: string }) => s.code)).toEqual(['KIN-FUN-C1-E1']);
    expect(data.centres.map((c: { code: string }) => c.code)).toEqual([centre.code]);
    expect(data.abilities).toEqual({ manage: false });
    const [other] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KCE-1'));
    const elsewhere = (await call('GET', `/api/reference-data/places?province=${other!.id}`, as.schoolAdmin!)).json().data;
    expect(elsewhere.schools).toEqual([]);
    expect(elsewhere.centres).toEqual([]);
  });

  it('is refused to a role that checks no list, and answers an unknown province 404', async () => {
    expect((await call('GET', `/api/reference-data/places?province=${province.id}`, as.validateur!)).statusCode).toBe(403);
    expect((await call('GET', '/api/reference-data/places?province=999999', as.admin!)).statusCode).toBe(404);
    expect((await call('GET', '/api/reference-data/places', as.admin!)).statusCode).toBe(422);
  });
});

describe('adding and renaming schools and centres', () => {
  it('adds a centre and a school teaching options, renames them, audited', async () => {
    const created = await call('POST', '/api/reference-data/centres', as.admin!, {
      code: 'kin-fun-c9',
      name: 'Centre Institut Mapendo',
      city: 'Kinshasa',
      educ_province_id: province.id,
    });
    expect(created.statusCode).toBe(200);
    const newCentre = created.json().data;
    expect(newCentre).toMatchObject({ code: 'KIN-FUN-C9', name: 'Centre Institut Mapendo', educ_province_id: province.id });
    expect(await lastAudit('reference.centre_created')).toMatchObject({ subjectId: String(newCentre.id) });

    const school = await call('POST', '/api/reference-data/institutions', as.admin!, {
      code: 'KIN-FUN-C9-E1',
      name: 'Institut Saint-Joseph de Funa',
      city: 'Kinshasa',
      centre_id: newCentre.id,
      option_ids: [],
    });
    expect(school.statusCode).toBe(200);
    const newSchool = school.json().data;
    expect(newSchool).toMatchObject({ centre_id: newCentre.id, educ_province_id: province.id });

    const renamed = await call('PATCH', `/api/reference-data/institutions/${newSchool.id}`, as.admin!, { name: 'Institut Saint-Joseph' });
    expect(renamed.json().data).toMatchObject({ code: 'KIN-FUN-C9-E1', name: 'Institut Saint-Joseph', city: 'Kinshasa' });
    expect(await lastAudit('reference.school_renamed')).toMatchObject({ details: { code: 'KIN-FUN-C9-E1', from: 'Institut Saint-Joseph de Funa', to: 'Institut Saint-Joseph' } });
    const centreRenamed = await call('PATCH', `/api/reference-data/centres/${newCentre.id}`, as.root!, { name: 'Funa IX', city: 'Kinshasa-Funa' });
    expect(centreRenamed.json().data).toMatchObject({ name: 'Funa IX', city: 'Kinshasa-Funa' });
  });

  it('refuses a taken code, an unknown centre, bad values, with translated field messages', async () => {
    const taken = await call(
      'POST',
      '/api/reference-data/institutions',
      { ...as.admin!, 'x-locale': 'en' },
      { code: 'KIN-FUN-C1-E1', name: 'Doublon', city: 'Kinshasa', centre_id: centre.id },
    );
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.code).toEqual(["The code KIN-FUN-C1-E1 is already a school's or a centre's"]);
    const noCentre = await call('POST', '/api/reference-data/institutions', as.admin!, { code: 'KIN-FUN-X1', name: 'Nouvelle école', city: 'Kinshasa', centre_id: 999999 });
    expect(noCentre.json().errors.centre_id).toEqual(['Centre inconnu']);
    const bad = await call('POST', '/api/reference-data/centres', as.admin!, { code: 'KIN FUN/C1', name: 'ab', city: 'x'.repeat(81), educ_province_id: province.id });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['city', 'code', 'name']);
    expect((await call('PATCH', '/api/reference-data/centres/999999', as.admin!, { name: 'Quelque part' })).statusCode).toBe(404);
  });

  it('lets only national accounts with reference.manage change them', async () => {
    const body = { code: 'KIN-FUN-C8', name: 'Centre refusé', city: 'Kinshasa', educ_province_id: province.id };
    expect((await call('POST', '/api/reference-data/centres', as.schoolAdmin!, body)).statusCode).toBe(403);
    expect((await call('POST', '/api/reference-data/centres', as.validateur!, body)).statusCode).toBe(403);
    expect((await call('PATCH', `/api/reference-data/institutions/${schoolA.id}`, as.schoolAdmin!, { name: 'Renommée en douce' })).statusCode).toBe(403);
    expect((await ctx.db.select().from(centres).where(eq(centres.code, 'KIN-FUN-C8'))).length).toBe(0);
  });
});

describe('importing schools and centres from a CSV', () => {
  it('adds centres and schools (centres first, whatever the order), renames known codes, in one audited transaction', async () => {
    const csv = [
      'Type;Code;Nom;Ville;Province;Centre;Options',
      'ecole;KIN-FUN-C7-E1;Lycée Tumaini;Kinshasa;;KIN-FUN-C7;LIT BC',
      'centre;KIN-FUN-C7;Centre Lycée Tumaini;Kinshasa;KIN-FUN;;',
      '',
      `école;KIN-FUN-C1-E1;Institut Élikya;;;;`,
    ].join('\r\n');
    const res = await importCsv(`\uFEFF${csv}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ centres: { created: 1, renamed: 0, unchanged: 0 }, schools: { created: 1, renamed: 1, unchanged: 0 } });
    const [added] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C7-E1'));
    const [addedCentre] = await ctx.db.select().from(centres).where(eq(centres.code, 'KIN-FUN-C7'));
    expect(added).toMatchObject({ name: 'Lycée Tumaini', centreId: addedCentre!.id, educProvinceId: province.id });
    expect(await ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, added!.id))).toHaveLength(2);
    const [renamed] = await ctx.db.select().from(institutions).where(eq(institutions.id, schoolA.id));
    expect(renamed).toMatchObject({ name: 'Institut Élikya', city: schoolA.city });
    expect(await lastAudit('reference.imported')).toMatchObject({ details: { rows: 3 } });
    // The same file again: nothing changes.
    expect((await importCsv(csv)).json().data).toEqual({ centres: { created: 0, renamed: 0, unchanged: 1 }, schools: { created: 0, renamed: 0, unchanged: 2 } });
  });

  it('writes nothing when any row is wrong, and names every row’s problem, translated', async () => {
    const csv = [
      'type,code,nom,ville,province,centre,options',
      'centre,KIN-FUN-C6,Centre bon,Kinshasa,KIN-FUN,,',
      'ecole,KIN-FUN-C6-E1,Bonne école,Kinshasa,,KIN-FUN-C6,LIT',
      'lycee,KIN-FUN-C6-E2,Mauvais type,Kinshasa,,KIN-FUN-C6,',
      'ecole,KIN-FUN-C6-E1,Répétée,Kinshasa,,KIN-FUN-C6,',
      'ecole,KIN-FUN-C6-E3,Sans centre,Kinshasa,,KIN-FUN-C99,ZZZ',
      'centre,KIN-FUN-C1-E2,Code d école,Kinshasa,KIN-FUN,,',
    ].join('\n');
    const res = await importCsv(csv, as.admin!, 'en');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([
      'Lines to correct: 5. Nothing was saved',
      'Line 4: unknown type “lycee” (write centre or ecole)',
      'Line 5: the code KIN-FUN-C6-E1 already appears on line 3',
      'Line 6: unknown option “ZZZ”',
      'Line 6: unknown centre “KIN-FUN-C99” (neither registered nor added by this file)',
      "Line 7: the code KIN-FUN-C1-E2 is a school's, not a centre's",
    ]);
    expect(await ctx.db.select().from(centres).where(like(centres.code, 'KIN-FUN-C6%'))).toEqual([]);
  });

  it('bounds the upload: size, rows, columns, an empty file, and the permission before reading', async () => {
    const big = await importCsv(`type;code;nom\n${'centre;X;'.padEnd(1024 * 1024 + 10, 'x')}`);
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json().errors.file).toEqual(['Le fichier ne doit pas dépasser 1 Mo']);
    const rows = Array.from({ length: 5001 }, (_, i) => `centre;K-${i};Centre ${i};Kinshasa;KIN-FUN`).join('\n');
    expect((await importCsv(`type;code;nom;ville;province\n${rows}`)).json().errors.file).toEqual(['Le fichier dépasse 5000 lignes : importez-le en plusieurs fois']);
    expect((await importCsv('nom;ville\nA;B', as.admin!, 'en')).json().errors.file).toEqual([
      'Required columns missing: type, code. Expected headers: type;code;nom;ville;province;centre;options',
    ]);
    expect((await importCsv('type;code;nom\n\n')).json().errors.file).toEqual(['Le fichier ne contient aucune ligne sous les en-têtes']);
    expect((await importCsv('type;code;nom\ncentre;KIN-FUN-C5;Centre', as.schoolAdmin!)).statusCode).toBe(403);
    expect(
      await ctx.db
        .select()
        .from(centres)
        .where(and(eq(centres.code, 'KIN-FUN-C5'))),
    ).toEqual([]);
  });
});
