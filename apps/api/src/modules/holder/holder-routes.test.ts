import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { auditLog, diplomas, generationItems, nationalResults, shareLinks, users } from '../../db/schema.ts';
import { createServices, type Services } from '../../services.ts';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { hashPassword } from '../accounts/auth-service.ts';
import { FAKE_PHOTO, insertDiplomaFixture, type DiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';

let ctx: TestContext;
let services: Services;
let app: App;

const PASSWORD = 'Titulaire-2026';
const AMANI_PHONE = '+243812345678';
const BEYA_EMAIL = 'beya@example.cd';
let amani: string;
let beya: string;
let root: string;
/** Amani's (by phone), Beya's (by e-mail), Amani's revoked one, Amani's in a batch not yet published, nobody's. */
let mine: DiplomaFixture;
let hers: DiplomaFixture;
let mineRevoked: DiplomaFixture;
let mineUnpublished: DiplomaFixture;
let nobodys: DiplomaFixture;

async function person(name: string, contact: { email?: string; phone?: string }): Promise<string> {
  await ctx.db.insert(users).values({ name, ...contact, passwordHash: await hashPassword(PASSWORD), verifiedAt: new Date() });
  return signIn(ctx, contact.email ?? contact.phone!, PASSWORD);
}

async function candidateContacts(diploma: DiplomaFixture, contacts: { email?: string | null; phone?: string | null }) {
  await ctx.db.update(generationItems).set(contacts).where(eq(generationItems.id, diploma.itemId));
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? as(token) : {} });
const share = (token: string, body: unknown) => app.inject({ method: 'POST', url: '/api/holder/shares', headers: as(token), payload: body as object });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

beforeAll(async () => {
  ctx = await createTestApp({ PUBLIC_URL: 'http://diplomes.test' });
  services = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const codes = (await ctx.db.select({ code: nationalResults.candidateCode }).from(nationalResults).orderBy(nationalResults.candidateCode).limit(5)).map((r) => r.code);
  mine = await insertDiplomaFixture(ctx.db, services.storage, codes[0]!);
  hers = await insertDiplomaFixture(ctx.db, services.storage, codes[1]!);
  mineRevoked = await insertDiplomaFixture(ctx.db, services.storage, codes[2]!, { revoked: true });
  mineUnpublished = await insertDiplomaFixture(ctx.db, services.storage, codes[3]!, { status: 'ready_for_signature' });
  nobodys = await insertDiplomaFixture(ctx.db, services.storage, codes[4]!);
  for (const diploma of [mine, mineRevoked, mineUnpublished]) await candidateContacts(diploma, { phone: AMANI_PHONE });
  await candidateContacts(hers, { email: BEYA_EMAIL, phone: '+243899000001' });
  amani = await person('Amani', { phone: AMANI_PHONE });
  beya = await person('Beya', { email: BEYA_EMAIL });
  root = await signIn(ctx, 'root@sceau.example');
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe('my diplomas', () => {
  it("lists the diplomas whose candidate has the account's phone, with the result, a revoked one marked, nothing unpublished", async () => {
    const res = await get('/api/holder/diplomas', amani);
    expect(res.statusCode).toBe(200);
    const list = res.json().data as { id: string; status: string; percentage: number; abilities: { download: boolean; share: boolean } }[];
    expect(list.map((d) => d.id).sort()).toEqual([mine.id, mineRevoked.id].sort());
    const valid = list.find((d) => d.id === mine.id)!;
    expect(valid).toMatchObject({ status: 'valid', abilities: { download: true, share: true } });
    expect(valid.percentage).toBeGreaterThan(0);
    expect(list.find((d) => d.id === mineRevoked.id)).toMatchObject({ status: 'revoked', abilities: { download: false, share: false } });
  });

  it("finds a diploma by the account's e-mail too, and never another person's", async () => {
    const list = (await get('/api/holder/diplomas', beya)).json().data as { id: string }[];
    expect(list.map((d) => d.id)).toEqual([hers.id]);
  });

  it('gives a staff account nothing more: root sees only diplomas of its own contacts (none)', async () => {
    const res = await get('/api/holder/diplomas', root);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    // Nor can it share a diploma that is not its own.
    expect((await share(root, { diploma_id: nobodys.id, days: 7 })).statusCode).toBe(404);
  });

  it('gives the holder their full credential as stored (ADR 0134), and nobody else', async () => {
    const res = await get(`/api/holder/diplomas/${mine.id}/credential`, amani);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="diplome-${mine.id}.json"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const [stored] = await ctx.db.select({ credential: diplomas.credential }).from(diplomas).where(eq(diplomas.id, mine.id));
    expect(JSON.parse(res.body)).toEqual(stored!.credential);
    // Another person, a staff account, an anonymous caller: as if it did not exist, or not signed in.
    expect((await get(`/api/holder/diplomas/${mine.id}/credential`, beya)).statusCode).toBe(404);
    expect((await get(`/api/holder/diplomas/${nobodys.id}/credential`, root)).statusCode).toBe(404);
    expect((await get(`/api/holder/diplomas/${mine.id}/credential`)).statusCode).toBe(401);
    // Under the rule of the PDF: not for a revoked diploma, not before publication.
    expect((await get(`/api/holder/diplomas/${mineRevoked.id}/credential`, amani)).statusCode).toBe(409);
    expect((await get(`/api/holder/diplomas/${mineUnpublished.id}/credential`, amani)).statusCode).toBe(404);
    expect((await get('/api/holder/diplomas/not-an-id/credential', amani)).statusCode).toBe(422);
  });

  it('needs an account', async () => {
    expect((await get('/api/holder/diplomas')).statusCode).toBe(401);
    expect((await get('/api/holder/shares')).statusCode).toBe(401);
  });
});

describe('share links', () => {
  it('makes a link that opens the diploma, stores only a hash of its secret, and records it in the audit log', async () => {
    const res = await share(amani, { diploma_id: mine.id, days: 30, label: '  Employeur Kinshasa ' });
    expect(res.statusCode).toBe(201);
    const { share: made, url } = res.json().data as { share: { id: number; expires_at: string; label: string; state: string }; url: string };
    expect(url).toMatch(/^http:\/\/diplomes\.test\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ label: 'Employeur Kinshasa', state: 'active' });
    const days = (new Date(made.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const [row] = await ctx.db.select().from(shareLinks).where(eq(shareLinks.id, made.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toContain(tokenOf(url));
    const [audit] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'diploma.share_created'));
    expect(audit).toMatchObject({ subjectType: 'diploma', subjectId: mine.id });

    // Anyone holding the link sees the holder's photo; the list shows the link without its secret.
    const photo = await get(`/api/shared/${tokenOf(url)}/photo`);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['cache-control']).toBe('private, no-store');
    expect(photo.rawPayload.equals(FAKE_PHOTO)).toBe(true);
    const list = (await get('/api/holder/shares', amani)).json().data as { id: number }[];
    expect(list.map((s) => s.id)).toContain(made.id);
    expect(JSON.stringify(list)).not.toContain(tokenOf(url));
  });

  it('makes a link that never expires', async () => {
    const res = await share(amani, { diploma_id: mine.id, days: null });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.share.expires_at).toBeNull();
  });

  it('refuses a revoked link, saying so, and lets only its maker revoke it', async () => {
    const { share: made, url } = (await share(amani, { diploma_id: mine.id, days: 7 })).json().data as { share: { id: number }; url: string };
    expect((await app.inject({ method: 'DELETE', url: `/api/holder/shares/${made.id}`, headers: as(beya) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/api/holder/shares/${made.id}`, headers: as(root) })).statusCode).toBe(404);

    const revoked = await app.inject({ method: 'DELETE', url: `/api/holder/shares/${made.id}`, headers: as(amani) });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.state).toBe('revoked');
    for (const path of ['', '/photo']) {
      const res = await get(`/api/shared/${tokenOf(url)}${path}`, undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors.token).toEqual(['Ce lien de partage a été révoqué par le titulaire du diplôme : demandez-lui un nouveau lien']);
    }
    const [audit] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'diploma.share_revoked'));
    expect(audit).toMatchObject({ subjectId: mine.id, details: { share: made.id } });
  });

  it('refuses an expired link, saying so in the reader’s language', async () => {
    const { share: made, url } = (await share(amani, { diploma_id: mine.id, days: 7 })).json().data as { share: { id: number }; url: string };
    await ctx.db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.id, made.id));
    const res = await app.inject({ method: 'GET', url: `/api/shared/${tokenOf(url)}`, headers: { 'x-locale': 'en' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors.token).toEqual(["This share link has expired: ask the diploma's holder for a new link"]);
    const listed = ((await get('/api/holder/shares', amani)).json().data as { id: number; state: string }[]).find((s) => s.id === made.id);
    expect(listed!.state).toBe('expired');
  });

  it('refuses an unknown link and a malformed one, and a link whose maker no longer holds the diploma', async () => {
    const unknown = await get(`/api/shared/${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors.token).toEqual(["Ce lien de partage n'existe pas : vérifiez qu'il est complet"]);
    expect((await get(`/api/shared/${'A'.repeat(44)}`)).statusCode).toBe(422);
    expect((await get('/api/shared/not..a..token')).statusCode).toBe(422);

    const { url } = (await share(beya, { diploma_id: hers.id, days: 90 })).json().data as { url: string };
    expect((await get(`/api/shared/${tokenOf(url)}/photo`)).statusCode).toBe(200);
    // The ministry corrects the candidate's e-mail: Beya's links stop with her holding of it.
    await candidateContacts(hers, { email: 'beya.mbuyi@example.cd' });
    const gone = await get(`/api/shared/${tokenOf(url)}/photo`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().errors.token).toEqual(['Ce lien de partage ne fonctionne plus : demandez un nouveau lien au titulaire du diplôme']);
    await candidateContacts(hers, { email: BEYA_EMAIL });
  });

  it("hides another person's diploma and an unpublished one, and refuses a revoked one", async () => {
    expect((await share(amani, { diploma_id: hers.id, days: 7 })).statusCode).toBe(404);
    expect((await share(amani, { diploma_id: mineUnpublished.id, days: 7 })).statusCode).toBe(404);
    const revoked = await share(amani, { diploma_id: mineRevoked.id, days: 7 });
    expect(revoked.statusCode).toBe(422);
    expect(revoked.json().errors.diploma_id).toEqual(['Ce diplôme est révoqué : il ne peut pas être partagé']);
  });

  it('bounds what it accepts: a duration of its list, a note of 80 characters, a diploma number', async () => {
    const refused = async (body: unknown, field: string) => {
      const res = await share(amani, body);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
    };
    await refused({ diploma_id: mine.id, days: 5 }, 'days');
    await refused({ diploma_id: mine.id, days: '30' }, 'days');
    await refused({ diploma_id: mine.id }, 'days');
    await refused({ diploma_id: mine.id, days: 7, label: 'x'.repeat(81) }, 'label');
    await refused({ diploma_id: 'x'.repeat(5000), days: 7 }, 'diploma_id');
    expect((await share(amani, { diploma_id: mine.id, days: 7, label: 'x'.repeat(80) })).statusCode).toBe(201);
  });

  it('keeps at most 20 live links per diploma', async () => {
    await ctx.db.delete(shareLinks).where(eq(shareLinks.diplomaId, hers.id));
    for (let i = 0; i < 20; i++) expect((await share(beya, { diploma_id: hers.id, days: 7 })).statusCode).toBe(201);
    const over = await share(beya, { diploma_id: hers.id, days: 7 });
    expect(over.statusCode).toBe(409);
    expect(over.json().errors.diploma_id[0]).toContain('20');
    // A revoked link frees its place.
    const [first] = (await get('/api/holder/shares', beya)).json().data as { id: number }[];
    await app.inject({ method: 'DELETE', url: `/api/holder/shares/${first!.id}`, headers: as(beya) });
    expect((await share(beya, { diploma_id: hers.id, days: 7 })).statusCode).toBe(201);
  });

  it('answers 503 for an opened link when the platform runs without its verification (never an unchecked diploma)', async () => {
    const { url } = (await share(amani, { diploma_id: mine.id, days: 7 })).json().data as { url: string };
    expect((await get(`/api/shared/${tokenOf(url)}`)).statusCode).toBe(503);
  });
});
