/**
 * What the access matrix test (access-matrix.test.ts) stands on: the real app with a job queue that
 * queues and never works, two schools in two educational provinces, one national and one
 * school-scoped account per role, and factories that write fresh objects straight into the tables
 * (so that a call that changes something never touches another cell's object).
 */
import { randomBytes } from 'node:crypto';
import { flattenGrants, type GenerationStatus, type RoleName, type SignatureKind } from '@sceau/contracts';
import { eq, ne } from 'drizzle-orm';
import { pino } from 'pino';
import sharp from 'sharp';
import { createTestApp, signIn, type TestContext } from '../../test/helpers.ts';
import { buildApp, type App } from '../app.ts';
import {
  centres,
  diplomas,
  examSessions,
  generationItems,
  generations,
  importations,
  institutionOptions,
  institutions,
  nationalResults,
  officialSignatures,
  options,
  roles,
  templates,
  userRoles,
  users,
} from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import { hashPassword } from '../modules/accounts/auth-service.ts';
import { issueAccessToken } from '../modules/accounts/token-service.ts';
import type { OpenChain } from '../modules/chain/open-chain.ts';
import { FAKE_PDF, FAKE_PHOTO } from '../modules/candidate-check/public-diploma-fixtures.ts';
import { RevocationService } from '../modules/revocation/revocation-service.ts';
import { issuingJobs } from '../modules/generations/issuing-jobs.ts';
import type { IssuingService } from '../modules/generations/issuing-service.ts';
import { loadRolesOf } from './grants.ts';
import type { VerificationService } from '../modules/verification/verification-service.ts';
import { seedCountryTemplate, seedDemoSignatures } from '../seed/demo-batch.ts';
import { createServices, type Services } from '../services.ts';
import type { Actor } from './actor.ts';
import type { BatchFacts } from './generation-policy.ts';
import { loadScopes, NATIONAL, type Scope } from './scope.ts';
import type { AccountFacts } from './user-policy.ts';

export const PASSWORD = 'Sceau-Matrix-2026';

/** A school and the place it stands for (resolved: its centre and province). */
export interface School {
  id: number;
  code: string;
  centreCode: string;
  optionId: number;
  optionCode: string;
  scope: Scope;
}

export interface Account {
  /** e.g. "admin (school A)", "validateur (national)". */
  label: string;
  role: RoleName;
  where: 'national' | 'school A';
  id: number;
  email: string;
  token: string;
  /** Built as the access plugin builds it: the account's roles, their permissions, its resolved scope. */
  actor: Actor;
  facts: AccountFacts;
}

export interface Batch {
  id: number;
  facts: BatchFacts;
  itemId: number;
  diplomaId: string | null;
}

export interface Matrix {
  ctx: TestContext;
  app: App;
  services: Services;
  queue: JobQueue;
  schools: { A: School; B: School };
  sessionId: number;
  templateId: number;
  roleIds: Record<RoleName, number>;
  accounts: Account[];
  close(): Promise<void>;
}

let serial = 0;
const next = () => ++serial;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * The services as an issuing process has them, minus the chain: launching, signing and revoking
 * only queue jobs here (nothing works them), so their jobs are defined but their chain is never
 * called. Verification needs the ministry's keys and the chain: a stand-in answers 503 to every
 * verification, which is enough for its routes (public) to be declared and reached.
 */
function matrixServices(ctx: TestContext, queue: JobQueue): Services {
  const services = createServices(ctx.db, ctx.config, { queue });
  const noChain = new Proxy(
    {},
    {
      get: () => {
        throw new Error('the access matrix has no chain');
      },
    },
  ) as OpenChain;
  services.jobs = issuingJobs({} as IssuingService);
  services.revocation = new RevocationService(ctx.db, noChain, () => {}, queue);
  services.verification = new Proxy(
    {},
    {
      get: (_, name) => {
        if (name === 'closeParsers') return async () => {};
        if (name === 'isCached' || name === 'isCurrent') return () => false;
        return () => {
          throw new AppError('service_unavailable');
        };
      },
    },
  ) as VerificationService;
  return services;
}

async function school(ctx: TestContext, institution: typeof institutions.$inferSelect): Promise<School> {
  const [centre] = await ctx.db.select().from(centres).where(eq(centres.id, institution.centreId));
  const [offered] = await ctx.db
    .select({ id: options.id, code: options.code })
    .from(institutionOptions)
    .innerJoin(options, eq(options.id, institutionOptions.optionId))
    .where(eq(institutionOptions.institutionId, institution.id))
    .limit(1);
  const [anyOption] = offered ? [offered] : await ctx.db.select({ id: options.id, code: options.code }).from(options).limit(1);
  return {
    id: institution.id,
    code: institution.code,
    centreCode: centre!.code,
    optionId: anyOption!.id,
    optionCode: anyOption!.code,
    scope: { institutionId: institution.id, centreId: institution.centreId, educProvinceId: institution.educProvinceId },
  };
}

/** The Actor of an account, read the way the access plugin reads it for a request. */
export async function actorOf(m: Pick<Matrix, 'ctx'>, id: number): Promise<Actor> {
  const [roleList, scopes] = await Promise.all([loadRolesOf(m.ctx.db, [id]), loadScopes(m.ctx.db, [id])]);
  return { id, ...flattenGrants(roleList.get(id) ?? []), scope: scopes.get(id) ?? NATIONAL, ip: null, userAgent: null, locale: 'fr' };
}

let passwordHash: Promise<string> | null = null;

/** A staff account placed at `scope` (stored resolved, as policies/scope.ts expects) with `roleNames`. */
export async function insertAccount(
  m: Pick<Matrix, 'ctx' | 'roleIds'>,
  scope: Scope,
  roleNames: readonly RoleName[],
  email = `matrix-${next()}-${hex(3)}@sceau.example`,
): Promise<AccountFacts & { email: string; roleIds: number[] }> {
  passwordHash ??= hashPassword(PASSWORD);
  const [user] = await m.ctx.db
    .insert(users)
    .values({ name: 'Matrice', firstName: 'Compte', email, passwordHash: await passwordHash, verifiedAt: new Date(), ...scope })
    .returning({ id: users.id });
  const roleIds = roleNames.map((r) => m.roleIds[r]);
  if (roleIds.length) await m.ctx.db.insert(userRoles).values(roleIds.map((roleId) => ({ userId: user!.id, roleId })));
  return { id: user!.id, scope, roles: [...roleNames], archived: false, email, roleIds };
}

/** A bearer token for an account, issued directly (for a call that ends its session, e.g. sign-out). */
export async function freshToken(m: Pick<Matrix, 'ctx'>, userId: number): Promise<string> {
  const { token } = await issueAccessToken(m.ctx.db, { userId, clientId: m.ctx.config.oauth.clientId, scope: '', ttlMinutes: 60, ip: null, userAgent: null });
  return token;
}

export async function openMatrix(accountRoles: readonly RoleName[]): Promise<Matrix> {
  const ctx = await createTestApp({ OTP_RESEND_SECONDS: '0', OTP_DAILY_MAX: '1000' });
  const log = pino({ level: 'silent' });
  const queue = new JobQueue(ctx.databaseUrl, log);
  const services = matrixServices(ctx, queue);
  queue.define(...Object.values(services.jobs!), services.revocation!.job, services.imports.job, services.results.job, ...Object.values(services.distribution.jobs));
  await queue.start({ work: false });
  const app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();

  const templateId = await seedCountryTemplate(ctx.db);
  await seedDemoSignatures(ctx.db, services.storage);
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  // School A: a demo school (the imports tests' KIN-FUN-C1-E1); school B: one of another educational province.
  const [a] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'));
  const [b] = await ctx.db.select().from(institutions).where(ne(institutions.educProvinceId, a!.educProvinceId)).orderBy(institutions.id).limit(1);
  const schools = { A: await school(ctx, a!), B: await school(ctx, b!) };
  const roleIds = Object.fromEntries((await ctx.db.select({ id: roles.id, name: roles.name }).from(roles)).map((r) => [r.name, r.id])) as Record<RoleName, number>;

  const m: Matrix = { ctx, app, services, queue, schools, sessionId: session!.id, templateId, roleIds, accounts: [], close: async () => {} };
  for (const where of ['national', 'school A'] as const) {
    for (const role of accountRoles) {
      const scope = where === 'national' ? NATIONAL : schools.A.scope;
      const email = `matrix-${role}-${where === 'national' ? 'national' : 'school-a'}@sceau.example`;
      const facts = await insertAccount(m, scope, [role], email);
      const token = await signIn(ctx, email, PASSWORD);
      const actor = await actorOf(m, facts.id);
      m.accounts.push({
        label: `${role} (${where})`,
        role,
        where,
        id: facts.id,
        email,
        token,
        actor,
        facts: { id: facts.id, scope: actor.scope, roles: actor.roles, archived: false },
      });
    }
  }
  m.close = async () => {
    await queue.stop();
    await app.close();
    await ctx.close();
  };
  return m;
}

// ------------------------------------------------------------------ objects

const PRINTED: readonly string[] = ['ready_for_signature', 'completed'];

/** A batch at a school in a given state, with one candidate (photo stored) and, once printed, its diploma (PDF stored). */
export async function insertBatch(m: Matrix, at: School, status: GenerationStatus, options_: { revoked?: boolean; createdBy?: number } = {}): Promise<Batch> {
  const { db } = m.ctx;
  const n = next();
  const printed = PRINTED.includes(status);
  const [batch] = await db
    .insert(generations)
    .values({
      type: 'diplome_etat',
      templateId: m.templateId,
      sessionId: m.sessionId,
      title: `Lot de la matrice ${n}`,
      educProvinceId: at.scope.educProvinceId!,
      institutionId: at.id,
      centreId: at.scope.centreId,
      optionId: at.optionId,
      status,
      signatureStatus: status === 'completed' ? 'finished' : 'not_started',
      merkleRoot: printed ? hex(32) : null,
      publishedAt: status === 'completed' ? new Date() : null,
      revokedAt: options_.revoked ? new Date() : null,
      createdBy: options_.createdBy ?? null,
    })
    .returning();
  const photoKey = `photos/matrix/${batch!.id}-${n}.jpg`;
  await m.services.storage.put(photoKey, FAKE_PHOTO);
  const validated = status !== 'created' && status !== 'pending_validation';
  const [item] = await db
    .insert(generationItems)
    .values({
      generationId: batch!.id,
      candidateCode: `2026${String(n).padStart(10, '0')}`,
      lastName: 'Matondo',
      middleName: 'Ndombasi',
      firstName: 'Espérance',
      birthDate: '2007-02-01',
      birthPlace: 'Matadi',
      gender: 'F',
      optionId: at.optionId,
      institutionId: at.id,
      centreId: at.scope.centreId!,
      percentageTenths: 650,
      photoKey,
      photoStatus: validated ? 'validated' : 'pending',
      dataStatus: validated ? 'validated' : 'pending',
      email: `candidat-${n}@sceau.example`,
    })
    .returning({ id: generationItems.id, candidateCode: generationItems.candidateCode });
  let diplomaId: string | null = null;
  if (printed) {
    diplomaId = randomBytes(16).toString('base64url');
    const pdfKey = `diplomas/matrix/${diplomaId}.pdf`;
    await m.services.storage.put(pdfKey, FAKE_PDF);
    await db.insert(diplomas).values({
      id: diplomaId,
      itemId: item!.id,
      generationId: batch!.id,
      candidateCode: item!.candidateCode,
      credential: { id: diplomaId },
      targetHash: hex(32),
      qrPayload: 'SC1:MATRIX',
      pdfKey,
      signingKeyId: 'matrix',
    });
  }
  const b = batch!;
  return {
    id: b.id,
    facts: { institutionId: b.institutionId, centreId: b.centreId, educProvinceId: b.educProvinceId, status: b.status, signatureStatus: b.signatureStatus, revokedAt: b.revokedAt },
    itemId: item!.id,
    diplomaId,
  };
}

/** An import of a list into a new batch of the school, still running. */
export async function insertImportation(m: Matrix, at: School, createdBy: number): Promise<{ id: number; batch: Batch }> {
  const batch = await insertBatch(m, at, 'created', { createdBy });
  const [row] = await m.ctx.db
    .insert(importations)
    .values({ generationId: batch.id, kind: 'list', status: 'running', fileKey: `imports/matrix-${batch.id}/list.csv`, rowsTotal: 1, createdBy })
    .returning({ id: importations.id });
  return { id: row!.id, batch };
}

/** A school's own template (a copy of the country's design). */
export async function insertSchoolTemplate(m: Matrix, at: School): Promise<number> {
  const [country] = await m.ctx.db.select().from(templates).where(eq(templates.id, m.templateId));
  const [row] = await m.ctx.db
    .insert(templates)
    .values({ name: `Modèle de l'école ${at.code} ${next()}`, ownerType: 'institution', ownerId: at.id, generationType: country!.generationType, design: country!.design })
    .returning({ id: templates.id });
  return row!.id;
}

/** A candidate of the national results registry, of the school. */
export async function insertResult(m: Matrix, at: School): Promise<string> {
  const code = `2025${String(next()).padStart(10, '0')}`;
  await m.ctx.db.insert(nationalResults).values({
    sessionId: m.sessionId,
    candidateCode: code,
    lastName: 'Luzolo',
    firstName: 'Joël',
    birthDate: '2007-05-04',
    birthPlace: 'Kinshasa',
    gender: 'M',
    institutionCode: at.code,
    centreCode: at.centreCode,
    optionCode: at.optionCode,
    percentageTenths: 612,
    // Not passed: the registry imports (from-…cd) leave it out of the batches they make.
    passed: false,
  });
  return code;
}

/** The official signature of `kind` exists (a removal in an earlier cell is undone). */
export async function ensureSignature(m: Matrix, kind: SignatureKind): Promise<void> {
  const [existing] = await m.ctx.db.select({ kind: officialSignatures.kind }).from(officialSignatures).where(eq(officialSignatures.kind, kind));
  if (!existing) await seedDemoSignatures(m.ctx.db, m.services.storage);
}

let signaturePng: Promise<Buffer> | null = null;
/** A black stroke on white paper, like a scanned signature. */
export function scannedSignature(): Promise<Buffer> {
  signaturePng ??= sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="100%" height="100%" fill="white"/><path d="M40 150 C 120 20, 200 180, 300 60 S 480 160, 560 40" stroke="#10204a" stroke-width="8" fill="none"/></svg>',
    ),
  )
    .png()
    .toBuffer();
  return signaturePng;
}

let photoJpeg: Promise<Buffer> | null = null;
export function uploadablePhoto(): Promise<Buffer> {
  photoJpeg ??= sharp({ create: { width: 300, height: 400, channels: 3, background: { r: 200, g: 180, b: 170 } } })
    .jpeg()
    .toBuffer();
  return photoJpeg;
}

/** Multipart bodies as the import tests build them. */
export { multipart } from '../modules/imports/imports-test-support.ts';
