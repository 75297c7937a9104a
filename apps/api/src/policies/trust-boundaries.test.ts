/**
 * The holes an attacker found with a school-scoped admin account (issue 12), each tried again
 * against the real app and database: every one of these calls succeeded before the policies.
 */
import { and, eq, ne } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { auditLog, diplomas, generations, institutions, nationalResults, officialSignatures, roles, userRoles, users } from '../db/schema.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import type { OpenChain } from '../modules/chain/open-chain.ts';
import { RevocationService } from '../modules/revocation/revocation-service.ts';
import { hashPassword } from '../modules/accounts/auth-service.ts';
import { insertDiplomaFixture } from '../modules/candidate-check/public-diploma-fixtures.ts';
import { RESULTS_LOOKUPS } from '../modules/imports/results-registry-service.ts';
import { multipart } from '../modules/imports/imports-test-support.ts';
import { seedDemoSignatures } from '../seed/demo-batch.ts';
import { createServices, type Services } from '../services.ts';
import { createTestApp, DEMO_PASSWORD, signIn, type TestContext } from '../../test/helpers.ts';

let ctx: TestContext;
let services: Services;
let queue: JobQueue;
let app: App;
type School = { id: number; centreId: number; educProvinceId: number; code: string };
let schoolA: School;
let schoolB: School;
const as: Record<'root' | 'admin' | 'schoolAdmin' | 'validateur', Record<string, string>> = {} as never;
let schoolAdminId: number;
let nationalAdminId: number;
let roleId: Record<string, number>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A staff account placed at `school` (its centre and province with it), holding `role`. */
async function staff(email: string, role: string, school: School | null): Promise<number> {
  const [user] = await ctx.db
    .insert(users)
    .values({
      name: 'Agent',
      firstName: 'Test',
      email,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      verifiedAt: new Date(),
      ...(school ? { institutionId: school.id, centreId: school.centreId, educProvinceId: school.educProvinceId } : {}),
    })
    .returning();
  await ctx.db.insert(userRoles).values({ userId: user!.id, roleId: roleId[role]! });
  return user!.id;
}

/** A candidate of the national results whose school is `school`. */
async function candidateOf(school: School, skip = 0): Promise<string> {
  const rows = await ctx.db
    .select({ code: nationalResults.candidateCode })
    .from(nationalResults)
    .where(eq(nationalResults.institutionCode, school.code))
    .limit(skip + 1);
  if (!rows[skip]) throw new Error(`no candidate of ${school.code} in the results registry`);
  return rows[skip].code;
}

/** Two schools with candidates in the registry, in two different educational provinces. */
async function twoSchools(): Promise<[School, School]> {
  const withResults = await ctx.db
    .selectDistinct({ id: institutions.id, centreId: institutions.centreId, educProvinceId: institutions.educProvinceId, code: institutions.code })
    .from(institutions)
    .innerJoin(nationalResults, eq(nationalResults.institutionCode, institutions.code));
  const a = withResults[0]!;
  const b = withResults.find((s) => s.educProvinceId !== a.educProvinceId);
  if (!b) throw new Error('the demo results need schools in two provinces');
  return [a, b];
}

beforeAll(async () => {
  ctx = await createTestApp();
  const log = pino({ level: 'silent' });
  queue = new JobQueue(ctx.databaseUrl, log);
  services = createServices(ctx.db, ctx.config, { queue });
  // Revocations are queued for real; no worker runs, so the chain (never called) is not needed.
  services.revocation = new RevocationService(ctx.db, {} as OpenChain, () => {}, queue);
  queue.define(services.revocation.job);
  await queue.start({ work: false });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();

  roleId = Object.fromEntries((await ctx.db.select().from(roles)).map((r) => [r.name, r.id]));
  [schoolA, schoolB] = await twoSchools();
  schoolAdminId = await staff('admin.ecole@example.cd', 'admin', schoolA);
  const [national] = await ctx.db.select().from(users).where(eq(users.email, 'admin@sceau.example'));
  nationalAdminId = national!.id;
  as.schoolAdmin = { authorization: `Bearer ${await signIn(ctx, 'admin.ecole@example.cd')}` };
  as.admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
  as.root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
  as.validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
});

afterAll(async () => {
  await queue?.stop();
  await app?.close();
  await ctx?.close();
});

describe('user management stays inside the scope', () => {
  it('a school admin lists only its school staff and cannot read a national admin', async () => {
    const colleague = await staff('secretaire@example.cd', 'validateur', schoolA);
    const elsewhere = await staff('autre.ecole@example.cd', 'validateur', schoolB);
    const list = await call('GET', '/api/users?per_page=100', as.schoolAdmin);
    const ids = list.json().data.map((u: { id: number }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([schoolAdminId, colleague]));
    expect(ids).not.toContain(elsewhere);
    expect(ids).not.toContain(nationalAdminId);
    expect((await call('GET', `/api/users/${nationalAdminId}`, as.schoolAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/api/users/${elsewhere}`, as.schoolAdmin)).statusCode).toBe(404);
  });

  it('cannot take over a national admin: no e-mail change, no sign-in link, no reset', async () => {
    const email = await call('PUT', `/api/users/${nationalAdminId}`, as.schoolAdmin, { email: 'pirate@example.cd' });
    expect(email.statusCode).toBe(404);
    expect((await call('POST', `/api/users/${nationalAdminId}/sign-in-link`, as.schoolAdmin)).statusCode).toBe(404);
    expect((await call('POST', `/api/users/${nationalAdminId}/reset`, as.schoolAdmin)).statusCode).toBe(404);
    const [after] = await ctx.db.select().from(users).where(eq(users.id, nationalAdminId));
    expect(after!.email).toBe('admin@sceau.example');
    const audited = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, 'user'), eq(auditLog.subjectId, String(nationalAdminId))));
    expect(audited.filter((entry) => entry.actorId === schoolAdminId)).toEqual([]);
  });

  it('cannot widen its own scope nor give itself a role, then read every batch', async () => {
    const widen = await call('PUT', `/api/users/${schoolAdminId}`, { ...as.schoolAdmin, 'x-locale': 'en' }, { institution_id: null, centre_id: null, province_id: null });
    expect(widen.statusCode).toBe(422);
    expect(widen.json().errors.roles).toEqual(['You cannot change your own roles or scope: ask another administrator']);
    const raise = await call('PUT', `/api/users/${schoolAdminId}`, as.schoolAdmin, { roles: [roleId.admin, roleId.backoffice_manager] });
    expect(raise.statusCode).toBe(422);
    const [me] = await ctx.db.select().from(users).where(eq(users.id, schoolAdminId));
    expect(me!.institutionId).toBe(schoolA.id);
    const mine = await ctx.db.select().from(userRoles).where(eq(userRoles.userId, schoolAdminId));
    expect(mine.map((r) => r.roleId)).toEqual([roleId.admin]);
    // Its own name it may still change.
    expect((await call('PUT', `/api/users/${schoolAdminId}`, as.schoolAdmin, { first_name: 'Marie' })).statusCode).toBe(200);
  });

  it('grants only roles whose permissions it holds, even to someone else', async () => {
    const target = await staff('agent2@example.cd', 'validateur', schoolA);
    const manager = await call('PUT', `/api/users/${target}`, as.admin, { roles: [roleId.backoffice_manager] });
    expect(manager.statusCode).toBe(422);
    expect(manager.json().errors.roles).toEqual(['Vous ne pouvez pas attribuer ce rôle']);
    expect((await call('PUT', `/api/users/${target}`, as.root, { roles: [roleId.backoffice_manager] })).statusCode).toBe(200);
    // The roles list says which the caller may give, from the same rule.
    const listed = (await call('GET', '/api/roles', as.admin)).json().data as { name: string; grantable: boolean }[];
    expect(Object.fromEntries(listed.map((r) => [r.name, r.grantable]))).toMatchObject({ root: false, admin: true, validateur: true, backoffice_manager: false });
  });

  it('places new and edited accounts only inside its scope; an account added without a place works at its school', async () => {
    const outside = await call('POST', '/api/users', as.schoolAdmin, {
      name: 'Dehors',
      email: 'dehors@example.cd',
      roles: [roleId.validateur],
      province_id: schoolB.educProvinceId,
    });
    expect(outside.statusCode).toBe(422);
    expect(Object.keys(outside.json().errors)).toEqual(['province_id']);
    const inside = await call('POST', '/api/users', as.schoolAdmin, { name: 'Dedans', email: 'dedans@example.cd', roles: [roleId.validateur] });
    expect(inside.statusCode).toBe(201);
    expect(inside.json().data.scope).toMatchObject({ institution_id: schoolA.id, centre_id: schoolA.centreId, province_id: schoolA.educProvinceId });
    const move = await call('PUT', `/api/users/${inside.json().data.id}`, as.schoolAdmin, { institution_id: schoolB.id });
    expect(move.statusCode).toBe(422);
    const mismatch = await call('PUT', `/api/users/${inside.json().data.id}`, as.root, { institution_id: schoolA.id, province_id: schoolB.educProvinceId });
    expect(mismatch.json().errors.institution_id).toEqual(["L'école, le centre et la province choisis ne correspondent pas"]);
  });

  it('sends with each account what the caller may do to it', async () => {
    const list = await call('GET', '/api/users?per_page=100', as.schoolAdmin);
    const me = list.json().data.find((u: { id: number }) => u.id === schoolAdminId);
    expect(me.abilities).toEqual({ edit: true, change_access: false, reset_password: false, send_sign_in_link: false, archive: false });
    const colleague = list.json().data.find((u: { id: number; roles: { name: string }[] }) => u.id !== schoolAdminId && u.roles.some((r) => r.name === 'validateur'));
    expect(colleague.abilities).toMatchObject({ edit: true, change_access: true, reset_password: true, archive: false });
  });
});

describe('revocation stays inside the scope and needs diplomas.revoke', () => {
  it('a school admin cannot revoke a diploma of another school nor a batch of another province', async () => {
    const other = await insertDiplomaFixture(ctx.db, services.storage, await candidateOf(schoolB));
    const one = await call('POST', `/api/diplomas/${other.id}/revoke`, as.schoolAdmin, { reason: 'Fraude constatée' });
    expect(one.statusCode).toBe(404);
    const batch = await call('POST', `/api/generations/${other.generationId}/revoke`, as.schoolAdmin, { reason: 'Fraude constatée' });
    expect(batch.statusCode).toBe(404);
    const [row] = await ctx.db.select().from(diplomas).where(eq(diplomas.id, other.id));
    expect(row!.revokedAt).toBeNull();
    const [g] = await ctx.db.select().from(generations).where(eq(generations.id, other.generationId));
    expect(g!.revokedAt).toBeNull();
  });

  it('revokes inside its scope; a role without diplomas.revoke is refused', async () => {
    const own = await insertDiplomaFixture(ctx.db, services.storage, await candidateOf(schoolA));
    expect((await call('POST', `/api/diplomas/${own.id}/revoke`, as.validateur, { reason: 'Fraude constatée' })).statusCode).toBe(403);
    expect((await call('POST', `/api/diplomas/${own.id}/revoke`, as.schoolAdmin, { reason: 'Fraude constatée' })).statusCode).toBe(202);
    expect((await call('POST', `/api/diplomas/${own.id}/revoke`, as.schoolAdmin, { reason: 'Fraude constatée' })).statusCode).toBe(409);
    const view = await call('GET', `/api/generations/${own.generationId}`, as.schoolAdmin);
    expect(view.json().data.abilities).toMatchObject({ view: true, revoke: true, download_all: false });
  });
});

describe('official signatures are national', () => {
  it('a scoped admin cannot replace the ministry signature; a national admin can', async () => {
    await seedDemoSignatures(ctx.db, services.storage);
    const [before] = await ctx.db.select().from(officialSignatures).where(eq(officialSignatures.kind, 'ministry'));
    const png = await (await import('sharp'))
      .default({ create: { width: 300, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: Buffer.from('<svg width="300" height="100"><path d="M10 80 Q 150 0 290 80" stroke="black" stroke-width="6" fill="none"/></svg>') }])
      .png()
      .toBuffer();
    const form = (name: string) => multipart({ kind: 'ministry', name, title: 'La Ministre' }, [{ name: 'image', filename: 's.png', type: 'image/png', data: png }]);
    const forged = form('Faussaire');
    const scoped = await app.inject({ method: 'POST', url: '/api/signatures', payload: forged.payload, headers: { ...as.schoolAdmin, ...forged.headers } });
    expect(scoped.statusCode).toBe(403);
    const [unchanged] = await ctx.db.select().from(officialSignatures).where(eq(officialSignatures.kind, 'ministry'));
    expect(unchanged!.imageSha256).toBe(before!.imageSha256);
    const state = await call('GET', '/api/signatures/state', as.schoolAdmin);
    expect(state.json().abilities).toEqual({ add: false, replace: false, remove: false });
    const real = form('Ministre');
    const national = await app.inject({ method: 'POST', url: '/api/signatures', payload: real.payload, headers: { ...as.admin, ...real.headers } });
    expect(national.statusCode).toBe(200);
  });
});

describe('the national results lookup', () => {
  it('answers only inside the scope, and at most RESULTS_LOOKUPS an hour per account', async () => {
    const [session] = await ctx.db.select({ id: nationalResults.sessionId }).from(nationalResults).limit(1);
    const mine = await candidateOf(schoolA, 1);
    const theirs = await candidateOf(schoolB, 1);
    const find = (headers: Record<string, string>, matricule: string) => call('POST', '/api/generations/find-exetat', headers, { matricule, session: session!.id });
    const lookerId = await staff('validateur.ecole@example.cd', 'validateur', schoolA);
    const looker = { authorization: `Bearer ${await signIn(ctx, 'validateur.ecole@example.cd')}` };
    expect((await find(looker, mine)).statusCode).toBe(200);
    expect((await find(looker, theirs)).statusCode).toBe(404);
    expect((await find(as.validateur, theirs)).statusCode).toBe(200);
    let last = 0;
    for (let i = 0; i < RESULTS_LOOKUPS.perHour; i++) last = (await find(looker, mine)).statusCode;
    expect(last).toBe(429);
    expect(lookerId).toBeGreaterThan(0);
    // Another account is not slowed by the first one's lookups.
    const others = await ctx.db.select().from(users).where(ne(users.id, lookerId)).limit(1);
    expect(others.length).toBe(1);
    expect((await find(as.validateur, mine)).statusCode).toBe(200);
  });
});
