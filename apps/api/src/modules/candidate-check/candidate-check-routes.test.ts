import { and, eq, like, ne } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { examSessions, nationalResults, rateLimits } from '../../db/schema.ts';
import { createServices, type Services } from '../../services.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { candidateCheckRequest } from '@sceau/contracts';
import { parseOrThrow } from '../../lib/validation.ts';
import { CandidateCheckService } from './candidate-check-service.ts';
import { insertDiplomaFixture } from './public-diploma-fixtures.ts';

const TOKEN = 'test-form-token';
let ctx: TestContext;
let services: Services;
let app: App;
let sessionId: number;

beforeAll(async () => {
  ctx = await createTestApp({ CANDIDATE_CHECK_TOKEN: TOKEN, CANDIDATE_CHECK_ACCEPTED_TOKENS: `${TOKEN}, partner-token`, CANDIDATE_CHECK_MAX_FAILURES: '3' });
  services = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  sessionId = (await ctx.db.select().from(examSessions).where(eq(examSessions.year, 2026)))[0]!.id;
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

type Fields = Record<string, string>;

function multipart(fields: Fields) {
  const boundary = '----sceau-candidate';
  const body = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  return { payload: Buffer.from(`${body}--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let address = 0;
/** Each test from its own address, so that the failure counter of one does not block another. */
const newAddress = () => `10.0.0.${++address}`;

function check(fields: Fields, remoteAddress: string, headers: Record<string, string> = {}) {
  const { payload, headers: type } = multipart(fields);
  return app.inject({ method: 'POST', url: '/api/v2/verify-candidate', payload, headers: { ...type, ...headers }, remoteAddress });
}

/** Élodie Ngalula Kabamba (demo candidate 1) with two real classmates of her school. */
const elodie = (): Fields => ({
  'api-token': TOKEN,
  fullname: 'Ngalula Kabamba Élodie',
  code: '20260000000001',
  birthdate: '2007-03-14',
  fullname_collegue_1: 'Mukendi Tshibangu Patrick',
  fullname_collegue_2: 'Mbuyamba Tshilombo Marie-Élodie',
  session_id: String(sessionId),
  phone: '+243812345678',
});

describe('POST /v2/verify-candidate', () => {
  it('recognises a candidate named with two real classmates, and gives their result and published diploma', async () => {
    const diploma = await insertDiplomaFixture(ctx.db, services.storage, '20260000000001');
    const res = await check(elodie(), newAddress());
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      recognised: true,
      candidate: { fullname: 'Ngalula Kabamba Élodie', session: 'Session 2026' },
      result: { passed: true, percentage: 72.5 },
      diploma_status: 'available',
      diploma_id: diploma.id,
    });
    // Nothing more about the person (no birth place, school code, classmates' data).
    expect(Object.keys(res.json().data)).toEqual(['recognised', 'candidate', 'result', 'diploma_status', 'diploma_id']);
  });

  it('tolerates case, accents, extra spaces, hyphens, the order of name parts and a DD/MM/YYYY date', async () => {
    const res = await check(
      {
        ...elodie(),
        fullname: '  ELODIE   ngalula kabamba ',
        birthdate: '14/03/2007',
        fullname_collegue_1: 'patrick MUKENDI tshibangu',
        fullname_collegue_2: 'Mbuyamba  Tshilombo Marie Elodie',
      },
      newAddress(),
    );
    expect(res.json().data.recognised).toBe(true);
  });

  it('fails with a classmate of another school, an unknown classmate, the candidate as a classmate, or a wrong birth date, name, code or session', async () => {
    const [mine] = await ctx.db.select().from(nationalResults).where(eq(nationalResults.candidateCode, '20260000000001'));
    const [elsewhere] = await ctx.db
      .select()
      .from(nationalResults)
      .where(and(eq(nationalResults.sessionId, sessionId), ne(nationalResults.institutionCode, mine!.institutionCode)))
      .limit(1);
    const otherSchool = [elsewhere!.lastName, elsewhere!.middleName, elsewhere!.firstName].filter(Boolean).join(' ');
    const [otherSession] = await ctx.db.select().from(examSessions).where(ne(examSessions.id, sessionId)).limit(1);
    const wrong: Fields[] = [
      { ...elodie(), fullname_collegue_2: otherSchool },
      { ...elodie(), fullname_collegue_1: 'Personne Inconnue Jamais' },
      { ...elodie(), fullname_collegue_1: 'Ngalula Kabamba Élodie' },
      { ...elodie(), birthdate: '2007-03-15' },
      { ...elodie(), fullname: 'Ngalula Élodie' },
      { ...elodie(), code: '20260000000002' },
      { ...elodie(), session_id: String(otherSession!.id) },
    ];
    for (const fields of wrong) {
      const res = await check(fields, newAddress());
      expect(res.statusCode, JSON.stringify(fields)).toBe(200);
      expect(res.json(), JSON.stringify(fields)).toEqual({ data: { recognised: false } });
    }
  });

  it('checks the fields: 14-digit code, names, date, session, two different classmates (422, translated)', async () => {
    const res = await check({ ...elodie(), code: '123', fullname: '', birthdate: '2007-02-30', fullname_collegue_1: 'Kab1la', session_id: 'x' }, newAddress(), {
      'x-locale': 'en',
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    expect(errors.code).toEqual(['The candidate code has exactly 14 digits']);
    expect(errors.fullname).toEqual(['This field is required']);
    expect(errors.birthdate).toEqual(['Invalid date of birth: use the YYYY-MM-DD or DD/MM/YYYY format']);
    expect(errors.session_id).toBeDefined();
    expect(errors.fullname_collegue_1).toEqual(['Write a name with letters, spaces, apostrophes or hyphens']);
    const same = await check({ ...elodie(), fullname_collegue_2: 'MUKENDI tshibangu Patrick' }, newAddress(), { 'x-locale': 'en' });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors).toEqual({ fullname_collegue_2: ['Name two different classmates'] });
    const phone = await check({ ...elodie(), phone: '+24381' }, newAddress());
    expect(phone.statusCode).toBe(422);
    expect(Object.keys(phone.json().errors)).toEqual(['phone']);
  });

  it('needs no phone (spec section 5), and reads a national 0812345678 like +243812345678', async () => {
    const { phone: _, ...withoutPhone } = elodie();
    const none = await check(withoutPhone, newAddress());
    expect(none.statusCode).toBe(200);
    expect(none.json().data.recognised).toBe(true);
    expect((await check({ ...elodie(), phone: '' }, newAddress())).json().data.recognised).toBe(true);
    const national = await check({ ...elodie(), phone: '0812345678' }, newAddress());
    expect(national.statusCode).toBe(200);
    expect(national.json().data.recognised).toBe(true);
  });

  it('refuses an unknown api-token (401) and accepts every configured one; JSON bodies too', async () => {
    const bad = await check({ ...elodie(), 'api-token': 'guess' }, newAddress(), { 'x-locale': 'en' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('invalid_client');
    const missing = await check(Object.fromEntries(Object.entries(elodie()).filter(([k]) => k !== 'api-token')), newAddress());
    expect(missing.statusCode).toBe(401);
    const crowded = await check({ ...elodie(), ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`extra_${i}`, 'x'])) }, newAddress());
    expect(crowded.statusCode).toBe(413);
    const partner = await app.inject({ method: 'POST', url: '/api/v2/verify-candidate', payload: { ...elodie(), 'api-token': 'partner-token' }, remoteAddress: newAddress() });
    expect(partner.statusCode).toBe(200);
    expect(partner.json().data.recognised).toBe(true);
  });

  it('says what became of the diploma: pending (passed, not published), revoked, none (not passed)', async () => {
    // Patrick Mukendi: passed, in a batch not yet signed.
    await insertDiplomaFixture(ctx.db, services.storage, '20260000000002', { status: 'ready_for_signature' });
    const patrick = { ...elodie(), fullname: 'Mukendi Tshibangu Patrick', code: '20260000000002', birthdate: '2006-11-02', fullname_collegue_1: 'Ngalula Kabamba Élodie' };
    expect((await check(patrick, newAddress())).json().data).toMatchObject({ recognised: true, diploma_status: 'pending', diploma_id: null });

    // Joseph Ilunga: his diploma was revoked.
    await insertDiplomaFixture(ctx.db, services.storage, '20260000000004', { revoked: true });
    const joseph = { ...elodie(), fullname: 'Ilunga wa Kalombo Joseph', code: '20260000000004', birthdate: '2006-05-30', fullname_collegue_2: 'Ngalula Kabamba Élodie' };
    expect((await check(joseph, newAddress())).json().data).toMatchObject({ recognised: true, diploma_status: 'revoked', diploma_id: null });

    // A candidate who did not pass, with two classmates of their school.
    const [failed] = await ctx.db
      .select()
      .from(nationalResults)
      .where(and(eq(nationalResults.sessionId, sessionId), eq(nationalResults.passed, false), like(nationalResults.candidateCode, '2026%')))
      .limit(1);
    const mates = await ctx.db
      .select()
      .from(nationalResults)
      .where(and(eq(nationalResults.sessionId, sessionId), eq(nationalResults.institutionCode, failed!.institutionCode), ne(nationalResults.candidateCode, failed!.candidateCode)))
      .limit(2);
    const name = (r: typeof failed) => [r!.lastName, r!.middleName, r!.firstName].filter(Boolean).join(' ');
    const res = await check(
      { ...elodie(), fullname: name(failed), code: failed!.candidateCode, birthdate: failed!.birthDate, fullname_collegue_1: name(mates[0]), fullname_collegue_2: name(mates[1]) },
      newAddress(),
    );
    expect(res.json().data).toMatchObject({ recognised: true, result: { passed: false, percentage: failed!.percentageTenths / 10 }, diploma_status: 'none', diploma_id: null });
  });

  it('rate-limits repeated failures from one address (429, even with the right answers), and writes nothing for a success', async () => {
    const ip = newAddress();
    expect((await check(elodie(), ip)).json().data.recognised).toBe(true);
    expect(
      await ctx.db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `candidate_check:${ip}`)),
    ).toEqual([]);

    for (let i = 0; i < 3; i++) expect((await check({ ...elodie(), fullname_collegue_1: `Faux Camarade ${'x'.repeat(i + 1)}` }, ip)).json().data.recognised).toBe(false);
    const blocked = await check(elodie(), ip, { 'x-locale': 'en' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3000);
    // Another address is not affected.
    expect((await check(elodie(), newAddress())).json().data.recognised).toBe(true);
  });
  it('checks asked at once share one statement and each gets its own answer: recognised, failed, or 429 for an address past its failures (ADR 0153)', async () => {
    const blockedIp = newAddress();
    for (let i = 0; i < 3; i++) await check({ ...elodie(), fullname_collegue_1: `Faux Camarade ${'y'.repeat(i + 1)}` }, blockedIp);
    // Every pool's statements (the check has connections of its own, ADR 0153).
    const statements = vi.spyOn(pg.Pool.prototype, 'query');
    try {
      const [ok, wrongDate, unknownCode, blocked, okAgain] = await Promise.all([
        check(elodie(), newAddress()),
        check({ ...elodie(), birthdate: '2007-03-15' }, newAddress()),
        check({ ...elodie(), code: '20269999999999' }, newAddress()),
        check(elodie(), blockedIp),
        check({ ...elodie(), fullname: 'ELODIE ngalula kabamba' }, newAddress()),
      ]);
      expect(ok!.json().data).toMatchObject({ recognised: true, candidate: { fullname: 'Ngalula Kabamba Élodie' } });
      expect(wrongDate!.json().data).toEqual({ recognised: false });
      expect(unknownCode!.json().data).toEqual({ recognised: false });
      expect(blocked!.statusCode).toBe(429);
      expect(okAgain!.json().data.recognised).toBe(true);
      const batches = statements.mock.calls
        .map(([config]) => config as unknown as { name?: string; values?: unknown[][] })
        .filter((config) => config.name === 'candidate_check_batch')
        .map((config) => config.values![0]!.length);
      expect(batches.reduce((a, b) => a + b, 0)).toBe(5);
      expect(Math.max(...batches)).toBeGreaterThan(1);
    } finally {
      statements.mockRestore();
    }
  });
  it("a school's names are used for at most the recheck bound: a classmate added to the results is recognised once it has passed, at the next check without it (ADR 0153)", async () => {
    const limits = { maxFailures: 100, windowMinutes: 1 };
    const input = parseOrThrow(candidateCheckRequest, { ...elodie(), fullname_collegue_1: 'Nouveau Camarade Ajouté' });
    const [mine] = await ctx.db.select().from(nationalResults).where(eq(nationalResults.candidateCode, '20260000000001'));
    const { id: _id, importedAt: _at, ...copy } = mine!;
    const bounded = new CandidateCheckService(ctx.db, limits, 400);
    const eager = new CandidateCheckService(ctx.db, limits, 0);
    const ip = newAddress();
    expect((await bounded.check(input, ip)).recognised).toBe(false);
    expect((await eager.check(input, ip)).recognised).toBe(false);
    const [added] = await ctx.db
      .insert(nationalResults)
      .values({ ...copy, candidateCode: '20260000009999', lastName: 'Nouveau', middleName: 'Camarade', firstName: 'Ajouté' })
      .returning();
    try {
      // Within the bound, the names read a moment ago; the version read on every check (bound 0) sees it at once.
      expect((await bounded.check(input, ip)).recognised).toBe(false);
      expect((await eager.check(input, ip)).recognised).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect((await bounded.check(input, ip)).recognised).toBe(true);
    } finally {
      await ctx.db.delete(nationalResults).where(eq(nationalResults.id, added!.id));
    }
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await bounded.check(input, ip)).recognised).toBe(false);
    expect((await eager.check(input, ip)).recognised).toBe(false);
    await bounded.close();
    await eager.close();
  });
});
