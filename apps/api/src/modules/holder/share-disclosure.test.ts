// A share link shows only what its holder chose (ADR 0152): the fields kept back are absent from
// the answer and the photo route, and its SD-JWT presentation discloses the chosen claims only.
import { diplomaRecordSchema } from '@sceau/credential';
import { verifyDiplomaSdJwt } from '@sceau/sd-jwt';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { buildApp, type App } from '../../app.ts';
import { diplomas, shareLinks } from '../../db/schema.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { heldBy, holderAccount } from './holder-test-support.ts';

const PUBLIC_URL = 'https://diplomes.example.cd';
const PHONE = '+243812340555';

let ctx: ChainTestContext;
let services: Services;
let app: App;
let rows: (typeof diplomas.$inferSelect)[];
let amani: string;

const record = (row: typeof diplomas.$inferSelect | undefined) => diplomaRecordSchema.parse((row!.credential as { record: unknown }).record);
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
async function link(body: Record<string, unknown>, diploma = rows[0]!): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/holder/shares', headers: { authorization: `Bearer ${amani}` }, payload: { diploma_id: diploma.id, days: 7, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return tokenOf(res.json().data.url);
}

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL });
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.id);
  await heldBy(ctx.db, rows.slice(0, 2), { phone: PHONE });
  amani = await holderAccount(ctx, 'Amani', { phone: PHONE });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe('what a share link discloses', () => {
  it('answers only the chosen fields: the others are absent from the JSON, named as kept back, and the photo is refused', async () => {
    const token = await link({ disclose: ['birth_date'] });
    const res = await get(`/api/shared/${token}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json().data;
    const issued = record(rows[0]);
    expect(view.verdict).toBe('authentic');
    expect(view.diploma).toMatchObject({
      last_name: issued.last_name,
      first_name: issued.first_name,
      option: issued.option,
      session: issued.session,
      birth_date: issued.birth_date,
    });
    for (const field of ['percentage', 'school', 'school_code', 'centre', 'centre_code', 'birth_place', 'hidden_fields', 'id']) expect(view.diploma).not.toHaveProperty(field);
    expect(view.disclosed).toEqual(['birth_date']);
    expect(view.withheld).toEqual(['birth_place', 'school', 'percentage', 'photo']);
    // Nowhere in the answer, not even in a check's text.
    expect(res.body).not.toContain(issued.school);
    expect(res.body).not.toContain(issued.birth_place);
    expect(res.body).not.toContain(issued.centre);
    const photo = await get(`/api/shared/${token}/photo`);
    expect(photo.statusCode).toBe(404);
    expect(photo.headers['content-type']).not.toMatch(/image/);
    // The maker sees what each link shows.
    const listed = (await get('/api/holder/shares', { authorization: `Bearer ${amani}` })).json().data as { disclosed: string[] }[];
    expect(listed[0]!.disclosed).toEqual(['birth_date']);
  });

  it('shows the birth place (from the issued record), the school, the percentage and the photo when chosen', async () => {
    const token = await link({ disclose: ['photo', 'percentage', 'school', 'birth_place', 'birth_date', 'photo'] });
    const view = (await get(`/api/shared/${token}`)).json().data;
    const issued = record(rows[0]);
    expect(view.diploma).toMatchObject({ birth_place: issued.birth_place, school: issued.school, percentage: issued.percentage, centre: issued.centre });
    expect(view.disclosed).toEqual(['birth_date', 'birth_place', 'school', 'percentage', 'photo']);
    expect(view.withheld).toEqual([]);
    expect((await get(`/api/shared/${token}/photo`)).statusCode).toBe(200);
  });

  it('shows what links always showed when no choice is sent (not the birth place), and stores the choice', async () => {
    const token = await link({});
    const view = (await get(`/api/shared/${token}`)).json().data;
    expect(view.disclosed).toEqual(['birth_date', 'school', 'percentage', 'photo']);
    expect(view.diploma).not.toHaveProperty('birth_place');
    const [stored] = await ctx.db.select({ disclosed: shareLinks.disclosed }).from(shareLinks).orderBy(shareLinks.id).limit(1).offset(2);
    expect(stored!.disclosed).toEqual(['birth_date', 'school', 'percentage', 'photo']);
  });

  it('refuses a field it does not know, or a choice that is not a list, with a translated message', async () => {
    for (const disclose of [['gender'], 'photo', Array.from({ length: 11 }, () => 'photo')]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/holder/shares',
        headers: { authorization: `Bearer ${amani}`, 'x-locale': 'en' },
        payload: { diploma_id: rows[0]!.id, days: 7, disclose },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[Object.keys(res.json().errors)[0]!][0]).toMatch(/^Choose what the link shows among/);
    }
    // The table refuses a field outside the list, whatever writes it.
    await link({});
    await expect(ctx.db.update(shareLinks).set({ disclosed: ['gender'] })).rejects.toThrow();
  });
});

describe("a share link's SD-JWT presentation", () => {
  it('discloses the chosen claims only and verifies against the published keys; the upload of /verification says authentic', async () => {
    const token = await link({ disclose: ['percentage'] });
    expect((await get(`/api/shared/${token}`)).json().data.presentation).toBe(true);
    const res = await get(`/api/shared/${token}/sd-jwt`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/dc\+sd-jwt/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const metadata = (await get('/.well-known/jwt-vc-issuer')).json();
    const result = await verifyDiplomaSdJwt(res.body, { jwks: metadata.jwks, issuer: PUBLIC_URL, vcts: [`${PUBLIC_URL}/vct/diploma`] });
    expect(result.checks.filter((c) => c.name !== 'status').every((c) => c.status === 'passed')).toBe(true);
    const issued = record(rows[0]);
    expect(result.claims).toMatchObject({
      family_name: issued.last_name,
      given_name: issued.first_name,
      option: issued.option,
      percentage: issued.percentage,
      diploma_id: rows[0]!.id,
    });
    for (const claim of ['birthdate', 'place_of_birth', 'school', 'centre', 'province', 'gender']) expect(result.claims).not.toHaveProperty(claim);

    const boundary = '----sceau-shared';
    const upload = await app.inject({
      method: 'POST',
      url: '/api/generations/verify',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-locale': 'en' },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="shared.sd-jwt"\r\nContent-Type: application/octet-stream\r\n\r\n${res.body}\r\n--${boundary}--\r\n`,
    });
    expect(upload.json().data).toMatchObject({ verdict: 'authentic', source: 'sd-jwt' });
  });

  it('is refused for a revoked diploma (the page still shows it revoked), and once the link is revoked', async () => {
    const token = await link({ disclose: ['school'] }, rows[1]!);
    await ctx.db.update(diplomas).set({ revokedAt: new Date(), revocationReason: 'Fraude constatée' }).where(eq(diplomas.id, rows[1]!.id));
    const refused = await get(`/api/shared/${token}/sd-jwt`, { 'x-locale': 'en' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.token).toEqual(['This diploma is revoked: no presentation of it is given']);
    const view = await get(`/api/shared/${token}`);
    expect(view.statusCode).toBe(200);
    expect(view.json().data.presentation).toBe(false);

    const other = await link({}, rows[0]!);
    const [made] = await ctx.db
      .select()
      .from(shareLinks)
      .orderBy(shareLinks.id)
      .limit(1)
      .offset((await ctx.db.select().from(shareLinks)).length - 1);
    await ctx.db.update(shareLinks).set({ revokedAt: new Date() }).where(eq(shareLinks.id, made!.id));
    const gone = await get(`/api/shared/${other}/sd-jwt`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().errors.token[0]).toContain('révoqué');
  });
});
