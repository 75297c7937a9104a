import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examSessions, generationItems, generations, institutions, nationalResults } from '../../db/schema.ts';
import { DEMO_RESULTS_COUNT, seedDemoResults } from './demo-seed.ts';
import { bearer, createImportTest, csv, csvFile, multipart, row, schoolUser, type ImportTest } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
});
afterAll(() => t.close());

const find = (payload: object, headers = admin) => t.app.inject({ method: 'POST', url: '/api/generations/find-exetat', headers, payload });
const fromRegistry = (payload: object, headers = admin) => t.app.inject({ method: 'POST', url: '/api/generations/import/from-exetatcd', headers, payload });

async function passedInProvince(provinceId: number, institutionId?: number) {
  const [{ n }] = (await t.ctx.db
    .select({ n: count() })
    .from(nationalResults)
    .innerJoin(institutions, eq(institutions.code, nationalResults.institutionCode))
    .where(
      and(
        eq(nationalResults.sessionId, t.sessionId),
        eq(nationalResults.passed, true),
        eq(institutions.educProvinceId, provinceId),
        ...(institutionId ? [eq(institutions.id, institutionId)] : []),
      ),
    )) as [{ n: number }];
  return n;
}

describe('the national results registry', () => {
  it('holds a synthetic session 2026 of about 3,000 candidates, the demo batch among them, seeded once', async () => {
    const [{ n }] = (await t.ctx.db.select({ n: count() }).from(nationalResults).where(eq(nationalResults.sessionId, t.sessionId))) as [{ n: number }];
    expect(n).toBe(DEMO_RESULTS_COUNT);
    await seedDemoResults(t.ctx.db);
    const [{ again }] = (await t.ctx.db.select({ again: count() }).from(nationalResults)) as [{ again: number }];
    expect(again).toBe(DEMO_RESULTS_COUNT);
    const passed = (await t.ctx.db.select({ n: count() }).from(nationalResults).where(eq(nationalResults.passed, true)))[0]!.n;
    expect(passed / n).toBeGreaterThan(0.7);
  });

  it('finds a candidate by matricule and session (id, year or name); unknown → 404, a bad code → 422', async () => {
    const res = await find({ matricule: '20260000000001', session: 2026 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      candidate_code: '20260000000001',
      last_name: 'Ngalula',
      middle_name: 'Kabamba',
      first_name: 'Élodie',
      birth_date: '2007-03-14',
      birth_place: 'Kinshasa',
      gender: 'F',
      percentage: 72.5,
      passed: true,
      school: { code: expect.stringMatching(/^KIN-FUN-/), name: expect.any(String) },
      session: { id: t.sessionId, year: 2026, name: 'Session 2026' },
    });
    expect((await find({ matricule: '20260000000001', session: t.sessionId })).json().data.candidate_code).toBe('20260000000001');
    expect((await find({ matricule: '20260000000001', session: 'Session 2026' })).statusCode).toBe(200);
    expect((await find({ matricule: '20269999999999', session: 2026 })).statusCode).toBe(404);
    expect((await find({ matricule: '20260000000001', session: 2021 })).statusCode).toBe(404);
    const bad = await find({ matricule: '123', session: 2026 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.matricule).toEqual(['Le code candidat compte exactement 14 chiffres']);
    // generation.view is enough; no generation permission is not.
    expect((await find({ matricule: '20260000000001', session: 2026 }, await bearer(t, 'controleur@sceau.example'))).statusCode).toBe(200);
  });

  it("serves the configured exam's paths only: another exam's name is no route (404), even for a valid request", async () => {
    const other = (url: string) => t.app.inject({ method: 'POST', url, headers: admin, payload: { matricule: '20260000000001', session: 2026 } });
    for (const url of ['/api/generations/find-bac', '/api/generations/find-exetatcd', '/api/generations/import/from-exetat', '/api/generations/import/from-baccd']) {
      const res = await other(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe('not_found');
    }
  });

  it('makes a batch of every passed candidate of a session and province not yet in a batch, imported by the import job', async () => {
    const expected = await passedInProvince(t.provinceId);
    expect(expected).toBeGreaterThan(50);
    // One of them already in a batch of the session: left out.
    const taken = { code: '20260000000002' };
    const [result] = await t.ctx.db.select().from(nationalResults).where(eq(nationalResults.candidateCode, taken!.code));
    const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [
      csvFile(csv([row(taken!.code, { ecole: result!.institutionCode, centre: result!.centreCode, option: result!.optionCode })])),
    ]);
    const checked = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
    expect(checked.json().data.errors).toEqual([]);
    const first = checked.json().data.generation_id as number;
    await t.services.imports.job.handle(
      {
        importationId: (await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: first, title: 'Un candidat' } })).json()
          .data.importation_id,
      },
      { id: 't' },
    );

    const res = await fromRegistry({ template_id: t.templateId, session_id: t.sessionId, province_id: t.provinceId });
    expect(res.statusCode).toBe(202);
    const data = res.json().data;
    expect(data).toEqual({ generation_id: expect.any(Number), importation_id: expect.any(Number), rows: expected - 1, skipped: 0 });
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, data.generation_id));
    expect(batch).toMatchObject({ status: 'created', sessionId: t.sessionId, educProvinceId: t.provinceId });

    await t.services.imports.job.handle({ importationId: data.importation_id }, { id: 't' });
    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, data.generation_id));
    expect(items).toHaveLength(expected - 1);
    expect(items.some((i) => i.candidateCode === taken!.code)).toBe(false);
    expect(items.find((i) => i.candidateCode === '20260000000001')).toMatchObject({
      lastName: 'Ngalula',
      firstName: 'Élodie',
      percentageTenths: 725,
      photoStatus: 'pending',
      dataStatus: 'pending',
    });
    expect((await t.ctx.db.select().from(generations).where(eq(generations.id, data.generation_id)))[0]!.status).toBe('pending_validation');

    const again = await fromRegistry({ template_id: t.templateId, session_id: t.sessionId, province_id: t.provinceId });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.province_id).toEqual(["Aucun candidat admis de cette session et de cette province n'est à importer (tous sont déjà dans un lot)"]);
  });

  it("gives a school-bound user only their school's candidates, and refuses another province", async () => {
    const [otherProvinceSchool] = await t.ctx.db.select().from(institutions).where(eq(institutions.code, 'KC-1-C1-E1'));
    const agent = await schoolUser(t, 'agent.kc1@ecole.example', otherProvinceSchool!.id);
    const expected = await passedInProvince(otherProvinceSchool!.educProvinceId, otherProvinceSchool!.id);
    const res = await fromRegistry({ template_id: t.templateId, session_id: t.sessionId, province_id: otherProvinceSchool!.educProvinceId, titre: 'Résultats KC-1' }, agent);
    expect(res.statusCode).toBe(202);
    expect(res.json().data.rows).toBe(expected);
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, res.json().data.generation_id));
    expect(batch).toMatchObject({ institutionId: otherProvinceSchool!.id, title: 'Résultats KC-1' });
    expect((await fromRegistry({ template_id: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, agent)).statusCode).toBe(422);
    expect((await fromRegistry({ template_id: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, await bearer(t, 'validateur@sceau.example'))).statusCode).toBe(
      403,
    );
  });

  it("loads the exam authority's export, all rows or none, and a corrected export replaces rows", async () => {
    const [session2025] = await t.ctx.db.select().from(examSessions).where(eq(examSessions.year, 2025));
    const headers = ['code_candidat', 'nom', 'postnom', 'prenom', 'date_naissance', 'lieu_naissance', 'sexe', 'option', 'ecole', 'centre', 'pourcentage', 'admis'];
    const line = (code: string, pct: string, admis: string) => [
      code,
      'Tshala',
      'Mpoyi',
      'Rebecca',
      '05/06/2006',
      'Kinshasa',
      'F',
      'LIT',
      'KIN-FUN-C1-E1',
      'KIN-FUN-C1',
      pct,
      admis,
    ];
    const bad = await t.services.results.importExport(csv([line('20250000000001', '61,0', 'oui'), line('2025', '55', 'non')], headers), session2025!.id);
    expect(bad.problems.map((p) => [p.row, p.code])).toEqual([[3, 'code_format']]);
    const codes = ['20250000000001', '20250000000002'];
    expect(await t.ctx.db.select().from(nationalResults).where(inArray(nationalResults.candidateCode, codes))).toHaveLength(0);

    const good = await t.services.results.importExport(csv([line('20250000000001', '61,0', 'oui'), line('20250000000002', '48.5', '')], headers), session2025!.id);
    expect(good).toEqual({ rows: 2, problems: [] });
    const corrected = await t.services.results.importExport(csv([line('20250000000002', '52', 'Admis')], headers), session2025!.id);
    expect(corrected.rows).toBe(1);
    const rows = await t.ctx.db.select().from(nationalResults).where(inArray(nationalResults.candidateCode, codes));
    expect(rows.map((r) => [r.candidateCode, r.percentageTenths, r.passed]).sort()).toEqual([
      ['20250000000001', 610, true],
      ['20250000000002', 520, true],
    ]);
  });
});
