import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe('reference data', () => {
  it('lists countries under data.data, DR Congo first and default, names in the request language', async () => {
    const fr = await get('/api/countries');
    expect(fr.status).toBe(200);
    const [first] = fr.body.data.data;
    expect(first).toMatchObject({ code: 'CD', dial_code: '243', is_default: true, name: 'République démocratique du Congo' });
    const dial = Object.fromEntries(fr.body.data.data.map((c: { code: string; dial_code: string }) => [c.code, c.dial_code]));
    expect(dial).toMatchObject({ FR: '33', US: '1', BE: '32', CA: '1' });
    const en = await get('/api/countries', { 'x-locale': 'en' });
    expect(en.body.data.data[0].name).toBe('Democratic Republic of the Congo');
    expect(en.headers['cache-control']).toContain('max-age');
  });

  it('lists sessions (newest first, one current), educational provinces and options', async () => {
    const sessions = (await get('/api/sessions')).body.data;
    expect(sessions[0].year).toBeGreaterThan(sessions.at(-1).year);
    expect(sessions.filter((s: { is_current: boolean }) => s.is_current)).toHaveLength(1);
    const provinces = (await get('/api/educ-provinces')).body.data;
    expect(provinces.map((p: { name: string }) => p.name)).toContain('Kinshasa-Funa');
    const options = (await get('/api/options')).body.data;
    expect(options.map((o: { name: string }) => o.name)).toContain('Biologie-Chimie');
    // Names in Unicode order (ADR 0139): "Éducation physique" before "Pédagogie générale", not after "P" as bytes sort.
    const pedagogique = options.filter((o: { section: string }) => o.section === 'Pédagogique').map((o: { name: string }) => o.name);
    expect(pedagogique).toEqual(['Éducation physique', 'Pédagogie générale']);
  });

  it('finds a centre, the centres offering an option, the schools of a centre teaching it, and a school', async () => {
    const options = (await get('/api/options')).body.data as { id: number }[];
    let found: { option: number; centre: number } | null = null;
    for (const option of options) {
      const centres = (await get(`/api/centres/${option.id}?option`)).body.data as { id: number }[];
      if (centres.length) {
        found = { option: option.id, centre: centres[0]!.id };
        break;
      }
    }
    expect(found).not.toBeNull();
    const centre = await get(`/api/centres/${found!.centre}`);
    expect(centre.body.data.id).toBe(found!.centre);

    const schools = (await get(`/api/institutions/${found!.centre}?centre=${found!.centre}&option=${found!.option}`)).body.data;
    expect(schools.length).toBeGreaterThan(0);
    for (const school of schools) expect(school.centre_id).toBe(found!.centre);
    // `center` is accepted as well as `centre`, and a bare flag means the path's id.
    expect((await get(`/api/institutions/${found!.centre}?center=${found!.centre}&option=${found!.option}`)).body.data).toEqual(schools);
    expect((await get(`/api/institutions/${found!.centre}?centre&option=${found!.option}`)).body.data).toEqual(schools);

    const province = centre.body.data.educ_province_id;
    const ofProvince = (await get(`/api/centres?province=${province}`)).body.data;
    expect(ofProvince.map((c: { id: number }) => c.id)).toContain(found!.centre);
    for (const c of ofProvince) expect(c.educ_province_id).toBe(province);

    const school = await get(`/api/institutions/${schools[0].id}`);
    expect(school.body.data).toEqual(schools[0]);
    const congo = (await get('/api/countries')).body.data.data[0];
    const national = (await get(`/api/institutions/country/${congo.id}`)).body.data;
    expect(national.length).toBeGreaterThan(50);
  });

  it('answers an unknown id with a translated 404 and a bad id with 422', async () => {
    const missing = await get('/api/centres/999999', { 'x-locale': 'en' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not_found', message: 'Resource not found' });
    const bad = await get('/api/institutions/abc');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.id).toBeDefined();
  });
});

describe('platform endpoints', () => {
  it('reports health', async () => {
    const res = await get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' }); // liveness: no dependency checked (readiness: /api/health/ready)
  });

  it('publishes an OpenAPI document listing every route', async () => {
    const res = await get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/oauth/token',
      '/api/me',
      '/api/user/logout',
      '/api/countries',
      '/api/sessions',
      '/api/educ-provinces',
      '/api/options',
      '/api/centres/{id}',
      '/api/institutions/{id}',
      '/api/institutions/country/{id}',
      '/api/health',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('answers an unknown API path with the error shape', async () => {
    const res = await get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});
