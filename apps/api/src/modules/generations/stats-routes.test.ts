import type { GenerationStatus } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions, roles, userRoles, users } from '../../db/schema.ts';
import { seedCountryTemplate } from '../../seed/demo-batch.ts';
import { hashPassword } from '../accounts/auth-service.ts';

let ctx: TestContext;
let templateId: number;
let sessionId: number;
let otherSessionId: number;
/** Two schools of two provinces. */
let places: { provinceId: number; provinceName: string; institutionId: number; centreId: number; optionId: number }[];
let seq = 0;

async function headersOf(email: string) {
  return { authorization: `Bearer ${await signIn(ctx, email)}` };
}

/** A staff account with `role`, tied to `scope` (none: national). */
async function staff(email: string, role: string | null, scope: Partial<Pick<typeof users.$inferInsert, 'institutionId' | 'centreId' | 'educProvinceId'>> = {}) {
  const [user] = await ctx.db
    .insert(users)
    .values({ name: 'Agent', firstName: 'Test', email, passwordHash: await hashPassword('Sceau-Demo-2026'), verifiedAt: new Date(), ...scope })
    .returning();
  if (role) {
    const [r] = await ctx.db.select().from(roles).where(eq(roles.name, role));
    await ctx.db.insert(userRoles).values({ userId: user!.id, roleId: r!.id });
  }
  return headersOf(email);
}

/**
 * A batch of `place` in `status` with `n` diplomas, `revoked` of them revoked one by one; `whole`
 * revokes the batch itself.
 */
async function batch(place: (typeof places)[number], status: GenerationStatus, n: number, options: { revoked?: number; whole?: boolean; session?: number } = {}) {
  const [g] = await ctx.db
    .insert(generations)
    .values({
      type: 'diplome_etat',
      templateId,
      sessionId: options.session ?? sessionId,
      educProvinceId: place.provinceId,
      institutionId: place.institutionId,
      centreId: place.centreId,
      status,
      revokedAt: options.whole ? new Date() : null,
    })
    .returning();
  for (let i = 0; i < n; i++) {
    const code = String(20268800000000 + ++seq);
    const [item] = await ctx.db
      .insert(generationItems)
      .values({
        generationId: g!.id,
        candidateCode: code,
        lastName: 'Stat',
        birthDate: '2007-01-01',
        birthPlace: 'Kinshasa',
        gender: 'F',
        optionId: place.optionId,
        institutionId: place.institutionId,
        centreId: place.centreId,
        percentageTenths: 600,
      })
      .returning();
    await ctx.db.insert(diplomas).values({
      id: `stat${String(seq).padStart(18, '0')}`,
      itemId: item!.id,
      generationId: g!.id,
      candidateCode: code,
      credential: {},
      targetHash: seq.toString(16).padStart(64, '0'),
      qrPayload: 'x',
      signingKeyId: 'k',
      revokedAt: i < (options.revoked ?? 0) ? new Date() : null,
    });
  }
  return g!.id;
}

const stats = async (headers: Record<string, string>, query = `?session=${sessionId}`) => ctx.app.inject({ method: 'GET', url: `/api/generations/stats${query}`, headers });

beforeAll(async () => {
  ctx = await createTestApp();
  templateId = await seedCountryTemplate(ctx.db);
  // Sessions of their own, so that no other batch of the database counts.
  const [s1] = await ctx.db.insert(examSessions).values({ name: 'Session statistique 2031', year: 2031 }).returning();
  const [s2] = await ctx.db.insert(examSessions).values({ name: 'Session statistique 2032', year: 2032 }).returning();
  sessionId = s1!.id;
  otherSessionId = s2!.id;
  places = [];
  for (const code of ['KIN-FUN', 'KC-1']) {
    const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, code));
    const [school] = await ctx.db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
    const [option] = await ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
    places.push({ provinceId: province!.id, provinceName: province!.name, institutionId: school!.id, centreId: school!.centreId, optionId: option!.optionId });
  }
  const [kin, kc] = places as [(typeof places)[number], (typeof places)[number]];
  await batch(kin, 'completed', 5, { revoked: 1 });
  await batch(kin, 'completed', 3, { whole: true });
  await batch(kin, 'ready_for_signature', 4);
  await batch(kin, 'pending_validation', 0);
  await batch(kc, 'completed', 2);
  await batch(kc, 'cancelled', 0);
  await batch(kc, 'completed', 7, { session: otherSessionId });
}, 120_000);
afterAll(async () => ctx?.close());

describe('GET /generations/stats', () => {
  it("counts a national user's batches and diplomas by session, province and status", async () => {
    const res = await stats(await headersOf('root@sceau.example'));
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.session).toEqual({ id: sessionId, name: 'Session statistique 2031' });
    // 5 + 3 + 4 + 2 diplomas; published: 4 (one revoked) + 2; revoked: 1 + the whole batch's 3.
    expect(data.totals).toEqual({ batches: 6, diplomas: 14, published: 6, revoked: 4 });
    expect(data.by_session).toEqual([{ session: { id: sessionId, name: 'Session statistique 2031', year: 2031 }, batches: 6, diplomas: 14, published: 6, revoked: 4 }]);
    const [kin, kc] = places;
    expect(data.by_province).toEqual(
      expect.arrayContaining([
        { province: { id: kin!.provinceId, name: kin!.provinceName }, batches: 4, diplomas: 12, published: 4, revoked: 4 },
        { province: { id: kc!.provinceId, name: kc!.provinceName }, batches: 2, diplomas: 2, published: 2, revoked: 0 },
      ]),
    );
    expect(data.by_province).toHaveLength(2);
    expect(data.by_status.map((s: { status: string }) => s.status)).toEqual([
      'created',
      'pending_validation',
      'ready_for_generation',
      'in_progress',
      'ready_for_signature',
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(data.by_status.find((s: { status: string }) => s.status === 'completed')).toEqual({ status: 'completed', batches: 3, diplomas: 10, published: 6, revoked: 4 });
    expect(data.by_status.find((s: { status: string }) => s.status === 'ready_for_signature')).toEqual({
      status: 'ready_for_signature',
      batches: 1,
      diplomas: 4,
      published: 0,
      revoked: 0,
    });
    expect(data.by_status.find((s: { status: string }) => s.status === 'failed')).toEqual({ status: 'failed', batches: 0, diplomas: 0, published: 0, revoked: 0 });
  });

  it('without a session, compares every session', async () => {
    const data = (await stats(await headersOf('admin@sceau.example'), '')).json().data;
    expect(data.session).toBeNull();
    const ours = data.by_session.filter((s: { session: { id: number } }) => [sessionId, otherSessionId].includes(s.session.id));
    expect(ours.map((s: { session: { year: number }; diplomas: number }) => [s.session.year, s.diplomas])).toEqual([
      [2031, 14],
      [2032, 7],
    ]);
  });

  it('shows staff tied to a province or a school only their scope', async () => {
    const [kin, kc] = places;
    const province = await staff('stats-province@sceau.example', 'validateur', { educProvinceId: kc!.provinceId });
    const inProvince = (await stats(province)).json().data;
    expect(inProvince.totals).toEqual({ batches: 2, diplomas: 2, published: 2, revoked: 0 });
    expect(inProvince.by_province.map((p: { province: { id: number } }) => p.province.id)).toEqual([kc!.provinceId]);

    const school = await staff('stats-school@sceau.example', 'admin', { institutionId: kin!.institutionId, centreId: kin!.centreId, educProvinceId: kin!.provinceId });
    const inSchool = (await stats(school)).json().data;
    expect(inSchool.totals).toEqual({ batches: 4, diplomas: 12, published: 4, revoked: 4 });
    expect(inSchool.by_province.map((p: { province: { id: number } }) => p.province.id)).toEqual([kin!.provinceId]);
    // Another session's batches of another province are not theirs either.
    const all = (await stats(school, '')).json().data;
    expect(all.by_session.some((s: { session: { id: number } }) => s.session.id === otherSessionId)).toBe(false);
  });

  it('refuses the signed-out, accounts without a batch permission, and an unknown session', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/generations/stats' })).statusCode).toBe(401);
    const nobody = await staff('stats-nobody@sceau.example', null);
    const refused = await stats(nobody);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Accès non autorisé');
    const unknown = await stats(await headersOf('admin@sceau.example'), '?session=999999');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.session).toBeDefined();
  });
});
